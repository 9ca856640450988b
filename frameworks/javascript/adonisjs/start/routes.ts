/*
 * The workloads' routes (docs/workloads.md); controllers are imported lazily, on their first request.
 */
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const PlainController = () => import('#controllers/plain_controller')
const WorldsController = () => import('#controllers/worlds_controller')
const SessionController = () => import('#controllers/session_controller')

router.get('/plaintext', [PlainController, 'plaintext'])
router.get('/json', [PlainController, 'json'])
router.get('/async', [PlainController, 'async'])
router.get('/hash', [PlainController, 'hash'])

router.get('/db', [WorldsController, 'db'])
router.get('/queries', [WorldsController, 'queries'])
router.get('/updates', [WorldsController, 'updates'])
router.get('/fortunes', [WorldsController, 'fortunes'])
router.get('/cached-queries', [WorldsController, 'cached'])

router.get('/session', [SessionController, 'show']).use(middleware.session())
