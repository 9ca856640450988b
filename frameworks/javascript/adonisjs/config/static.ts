import { defineConfig } from '@adonisjs/static'

// The static middleware's settings, as the starter kits and the static file server guide set them.
const staticServerConfig = defineConfig({
  enabled: true,
  etag: true,
  lastModified: true,
  dotFiles: 'ignore',
})

export default staticServerConfig
