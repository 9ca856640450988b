import { readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import { common } from '#services/common'

const { hashing } = common

/*
 * The workloads without a database. A string answer is sent by AdonisJS's response as
 * `text/plain; charset=utf-8`, an object as `application/json; charset=utf-8`, each with its length.
 */
export default class PlainController {
  plaintext() {
    return 'Hello, World!'
  }

  json() {
    return { message: 'Hello, World!' }
  }

  // A 15 ms wait on the event loop's timer, then the plaintext answer.
  async async() {
    await sleep(15)
    return 'Hello, World!'
  }

  // HASH_FILE is read on every request (docs/workloads.md, hash).
  async hash({ request, response }: HttpContext) {
    const raw = request.qs().n
    const reason = hashing.reason(raw)
    if (reason !== null) {
      return response.status(400).send(reason)
    }
    return hashing.iteratedSha256Hex(await readFile(env.get('HASH_FILE')), Number(raw))
  }
}
