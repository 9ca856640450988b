/*
 * Ace's JavaScript entrypoint (AdonisJS's own file, unchanged but for the console's folder): it registers
 * the TypeScript hook so that `node ace build` can load the TypeScript sources. `node ace build` rewrites
 * this file without the hook into build/ace.js, which runs `migration:run` in production.
 */
import '@poppinss/ts-exec'

await import('./entrypoints/console.js')
