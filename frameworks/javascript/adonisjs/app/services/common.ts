/*
 * The JavaScript stacks' shared, framework-independent helpers (frameworks/javascript/common): the hash
 * chain and its n check, TechEmpower's count clamp, random ids and fortune list, the TLS files, the
 * harness's numeric settings. They are CommonJS beside this folder, outside the standalone build, so they
 * are required from the framework's folder, the start command's working directory
 * (docs/adding-a-framework.md), whether the app runs from build/ or from source.
 */
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(path.resolve('package.json'))

interface Hashing {
  reason(raw: unknown): string | null
  iteratedSha256Hex(data: Buffer, n: number): string
}

interface Tfb {
  count(raw: unknown): number
  randomId(): number
  withExtraFortune<T extends { id: number; message: string }>(rows: T[]): { id: number; message: string }[]
}

interface Tls {
  tlsFiles(): { cert: Buffer; key: Buffer } | null
}

interface EnvHelpers {
  positiveInteger(name: string): number
}

export const common = {
  hashing: require('../common/hash.js') as Hashing,
  tfb: require('../common/tfb.js') as Tfb,
  tls: require('../common/tls.js') as Tls,
  env: require('../common/env.js') as EnvHelpers,
}
