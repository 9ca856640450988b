// webshootout workloads on NestJS (see docs/workloads.md): `node build/main.js` on Nest's default
// Express adapter, `node build/main.js --adapter=fastify` on its Fastify adapter; under
// ../common/cluster.js either runs in WORKERS processes.
import 'reflect-metadata';
import { Module, DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { WsAdapter } from '@nestjs/platform-ws';
import { join } from 'node:path';
import { AppController } from './app.controller';
import { ItemsController } from './items.controller';
import { Cookies, ExpressCookies, FastifyCookies } from './cookies';
import { Database } from './database';
import { EchoGateway } from './echo.gateway';
import { tlsFiles, upload } from './shared';

const { HOST, PORT, STATIC_DIR, SECRET_KEY } = process.env;
const VIEWS = join(__dirname, '..', '..', 'common', 'views');
const fastify = process.argv.includes('--adapter=fastify');
// With TLS_CERT/TLS_KEY ({ cert, key }), each adapter's own TLS options; null: cleartext HTTP/1.1 as before.
const tls = tlsFiles();

@Module({})
class AppModule {
  static forAdapter(cookies: typeof Cookies): DynamicModule {
    return {
      module: AppModule,
      controllers: [AppController, ItemsController],
      providers: [Database, EchoGateway, { provide: Cookies, useClass: cookies as any }],
    };
  }
}

// Warnings and errors only: Nest's logger has no access log, and its startup lines are left out.
const logger = ['error', 'warn'] as const;

async function expressApp() {
  // Nest's httpsOptions: node:https around Express (HTTP/1.1 only; Express does not run on node:http2).
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forAdapter(ExpressCookies), { logger: [...logger], ...(tls && { httpsOptions: tls }) });
  app.disable('x-powered-by');
  // Express sets no Server header of its own; node's http module sets a current Date.
  app.use((req, res, next) => {
    res.setHeader('Server', 'NestJS');
    next();
  });
  // Nest's compression recipe for Express (https://docs.nestjs.com/techniques/compression): compression with
  // its defaults (gzip, deflate and br by Accept-Encoding, 1 kb threshold, Vary: Accept-Encoding), app-wide;
  // the check's other requests send no Accept-Encoding.
  app.use(require('compression')());
  // Nest's useBodyParser (https://docs.nestjs.com/faq/raw-body): express.raw for
  // application/octet-stream (Content-Length or chunked), its limit answering 413 past 2 MiB.
  app.useBodyParser('raw', { type: 'application/octet-stream', limit: upload.BODY_LIMIT });
  // crud's JSON bodies: express.json as Nest registers it, but not strict, so that JSON that is not an object
  // reaches the item pipe (422) rather than body-parser's 400; registered here, Nest adds no json parser of its own.
  app.useBodyParser('json', { strict: false });
  app.use(require('cookie-parser')(SECRET_KEY));
  app.useStaticAssets(STATIC_DIR, { prefix: '/static/' });
  app.setBaseViewsDir(VIEWS);
  app.setViewEngine('ejs');
  return app;
}

// Fastify's own http2 and https options, which Nest's FastifyAdapter takes (FastifyHttp2SecureOptions), as
// Fastify's HTTP/2 docs show: h2 by ALPN, and allowHTTP1 for http/1.1 clients, the WebSocket upgrade among them.
function fastifyOptions() {
  if (tls === null) return { logger: false };
  return { logger: false, http2: true as const, https: { allowHTTP1: true, ...tls } };
}

async function fastifyApp() {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forAdapter(FastifyCookies), new FastifyAdapter(fastifyOptions()), { logger: [...logger] });
  app.getHttpAdapter().getInstance().addHook('onRequest', (request, reply, done) => {
    reply.header('server', 'NestJS');
    done();
  });
  // Nest's compression recipe for Fastify (https://docs.nestjs.com/techniques/compression): @fastify/compress
  // with its defaults (br, gzip and deflate by Accept-Encoding, 1024-byte threshold, Vary: Accept-Encoding),
  // for every route; the check's other requests send no Accept-Encoding.
  await app.register(require('@fastify/compress'));
  // Nest's useBodyParser (https://docs.nestjs.com/faq/raw-body): a Fastify content-type
  // parser that buffers application/octet-stream (Content-Length or chunked), its bodyLimit answering 413
  // past 2 MiB instead of Fastify's default 1 MiB.
  app.useBodyParser('application/octet-stream', { bodyLimit: upload.BODY_LIMIT });
  await app.register(require('@fastify/cookie'), { secret: SECRET_KEY });
  app.useStaticAssets({ root: STATIC_DIR, prefix: '/static/' });
  app.setViewEngine({ engine: { ejs: require('ejs') }, templates: VIEWS, production: true } as any);
  return app;
}

async function main() {
  const app = fastify ? await fastifyApp() : await expressApp();
  app.useWebSocketAdapter(new WsAdapter(app));
  app.enableShutdownHooks();
  await app.listen(Number(PORT), HOST);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
