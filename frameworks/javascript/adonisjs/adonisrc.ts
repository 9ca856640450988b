import { defineConfig } from '@adonisjs/core/app'

export default defineConfig({
  // Ace's commands: the core's and Lucid's (migration:run, which the start command runs).
  commands: [() => import('@adonisjs/core/commands'), () => import('@adonisjs/lucid/commands')],

  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/edge_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/session/session_provider'),
    () => import('@adonisjs/static/static_provider'),
    () => import('@adonisjs/cache/cache_provider'),
    () => import('#providers/shootout_provider'),
  ],

  preloads: [() => import('#start/routes'), () => import('#start/kernel')],

  // Copied into the standalone build by `node ace build` (the deployment guide's metaFiles).
  metaFiles: [
    {
      pattern: 'resources/views/**/*.edge',
      reloadServer: false,
    },
  ],
})
