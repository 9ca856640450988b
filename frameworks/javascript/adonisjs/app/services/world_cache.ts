import cache from '@adonisjs/cache/services/main'
import World from '#models/world'
import { common } from '#services/common'

const { tfb } = common

interface CachedWorld {
  id: number
  randomNumber: number
}

const key = (id: number) => `world:${id}`

/*
 * The cached workload's rows in @adonisjs/cache's memory store: every world row, read by one query on
 * first use and set under its id, then read from the cache alone (docs/workloads.md, cached). A failed
 * fill is tried again by the next request.
 */
let filling: Promise<void> | null = null

function fill(): Promise<void> {
  if (filling === null) {
    filling = World.all()
      .then(async (worlds) => {
        for (const world of worlds) {
          await cache.setForever({ key: key(world.id), value: { id: world.id, randomNumber: world.randomNumber } })
        }
      })
      .catch((error) => {
        filling = null
        throw error
      })
  }
  return filling
}

export async function sampleWorlds(n: number): Promise<CachedWorld[]> {
  await fill()
  const rows = new Array<CachedWorld>(n)
  for (let i = 0; i < n; i++) {
    rows[i] = (await cache.get<CachedWorld>({ key: key(tfb.randomId()) }))!
  }
  return rows
}
