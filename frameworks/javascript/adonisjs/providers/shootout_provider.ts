import type { ApplicationService } from '@adonisjs/core/types'
import StaticMiddleware from '@adonisjs/static/static_middleware'
import { WebSocketServer } from 'ws'

/*
 * What the harness decides at run time, wired in the service-provider way (the service providers guide):
 * - the static middleware's public directory is STATIC_DIR (the static provider binds it to the app's
 *   public/ folder, fixed at build time), so /index.html is STATIC_DIR/index.html;
 * - a WebSocket echo at /ws. AdonisJS 7 has no WebSocket server of its own (Transmit is server-sent
 *   events); the guide's example provider attaches a WebSocket library to the HTTP server in ready() and
 *   closes it in shutdown(), which this one does with ws.
 */
export default class ShootoutProvider {
  #wss?: WebSocketServer

  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(StaticMiddleware, async () => {
      const { default: env } = await import('#start/env')
      return new StaticMiddleware(env.get('STATIC_DIR'), this.app.config.get('static'))
    })
  }

  async ready() {
    if (this.app.getEnvironment() !== 'web') {
      return
    }
    const server = await this.app.container.make('server')
    this.#wss = new WebSocketServer({ server: server.getNodeServer(), path: '/ws' })
    this.#wss.on('connection', (ws) => {
      ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }))
    })
  }

  async shutdown() {
    await new Promise<void>((resolve) => (this.#wss ? this.#wss.close(() => resolve()) : resolve()))
  }
}
