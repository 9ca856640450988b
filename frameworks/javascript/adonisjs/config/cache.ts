import { defineConfig, store, drivers } from '@adonisjs/cache'

/*
 * @adonisjs/cache (Bentocache) with one in-memory store per process, the cache guide's store for a
 * single-instance app: the cached workload's world rows (docs/workloads.md, cached). Room for all 10,000
 * rows, kept as objects (no serialization), set forever: they are filled once, on first use.
 */
const cacheConfig = defineConfig({
  default: 'memory',
  stores: {
    memory: store().useL1Layer(drivers.memory({ maxItems: 20000, serialize: false })),
  },
})

export default cacheConfig

declare module '@adonisjs/cache/types' {
  interface CacheStores extends InferStores<typeof cacheConfig> {}
}
