import type { HttpContext } from '@adonisjs/core/http'
import World from '#models/world'
import Fortune from '#models/fortune'
import { common } from '#services/common'
import { sampleWorlds } from '#services/world_cache'

const { tfb } = common

// N rows of world, each read by a query of its own (World.findOrFail), issued together on the pool.
function randomWorlds(n: number): Promise<World[]> {
  const reads = new Array<Promise<World>>(n)
  for (let i = 0; i < n; i++) reads[i] = World.findOrFail(tfb.randomId())
  return Promise.all(reads)
}

// A new randomNumber that differs from the row's: Lucid's save() writes only changed attributes, so a
// number drawn equal to the old one (1 in 10,000) would leave that row without its UPDATE.
function newNumber(old: number): number {
  let n = tfb.randomId()
  while (n === old) n = tfb.randomId()
  return n
}

/*
 * TechEmpower's database types through Lucid models (docs/workloads.md). The answers are the models'
 * serialize() output, sent as JSON by AdonisJS's response.
 */
export default class WorldsController {
  async db() {
    const world = await World.findOrFail(tfb.randomId())
    return world.serialize()
  }

  async queries({ request }: HttpContext) {
    const worlds = await randomWorlds(tfb.count(request.qs().queries))
    return worlds.map((world) => world.serialize())
  }

  // Each row saved by its model: one UPDATE per row, each autocommitted on its own, so concurrent
  // requests never hold one row while waiting for another (no deadlock).
  async updates({ request }: HttpContext) {
    const worlds = await randomWorlds(tfb.count(request.qs().queries))
    for (const world of worlds) world.randomNumber = newNumber(world.randomNumber)
    await Promise.all(worlds.map((world) => world.save()))
    return worlds.map((world) => world.serialize())
  }

  // One query for every fortune, the request-time fortune added and the list sorted in memory, rendered
  // by Edge, which escapes {{ }} output.
  async fortunes({ view }: HttpContext) {
    const fortunes = tfb.withExtraFortune(await Fortune.all())
    return view.render('fortunes', { fortunes })
  }

  async cached({ request }: HttpContext) {
    return sampleWorlds(tfb.count(request.qs().count))
  }
}
