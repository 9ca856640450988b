import { Body, Controller, Get, Header, HttpCode, Post, Query, Render, Req, Res } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Cookies } from './cookies';
import { Database } from './database';
import { bump, hashing, jsonComp, tfb, upload } from './shared';

const TEXT = 'text/plain; charset=utf-8';

// The request and response are the adapter's own (Express's or Fastify's); both have status() and the
// cookie calls are behind Cookies.
@Controller()
export class AppController {
  constructor(private readonly database: Database, private readonly cookies: Cookies) {}

  @Get('plaintext')
  @Header('Content-Type', TEXT)
  plaintext() {
    return 'Hello, World!';
  }

  // async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
  @Get('async')
  @Header('Content-Type', TEXT)
  async delayed() {
    await sleep(15);
    return 'Hello, World!';
  }

  @Get('json')
  json() {
    return { message: 'Hello, World!' };
  }

  // Serialized by the adapter's JSON path, compressed by the adapter's middleware (main.ts).
  @Get('json-comp')
  compressedJson(@Query('n') n?: string) {
    return jsonComp.items(jsonComp.count(n));
  }

  // The body as the adapter's application/octet-stream parser buffered it (main.ts sets the 2 MiB limit);
  // an empty one may come as no body at all. 200, not @Post's default 201.
  @Post('upload')
  @HttpCode(200)
  @Header('Content-Type', TEXT)
  uploaded(@Body() body?: Buffer) {
    return upload.answer(Buffer.isBuffer(body) ? body : Buffer.alloc(0));
  }

  @Get('db')
  db() {
    return this.database.randomWorld();
  }

  @Get('queries')
  queries(@Query('queries') queries?: string) {
    return this.database.randomWorlds(tfb.count(queries));
  }

  @Get('updates')
  async updates(@Query('queries') queries?: string) {
    const worlds = await this.database.randomWorlds(tfb.count(queries));
    for (const w of worlds) w.randomNumber = tfb.randomId();
    await this.database.updateWorlds(worlds);
    return worlds;
  }

  // Nest's view rendering, through the adapter's engine: Express's view engine or @fastify/view, EJS both.
  @Get('fortunes')
  @Render('fortunes.ejs')
  async fortunes() {
    return { fortunes: await this.database.fortunes() };
  }

  @Get('cached-queries')
  cached(@Query('count') count?: string) {
    return this.database.cachedWorlds(tfb.count(count));
  }

  @Get('session')
  @Header('Content-Type', TEXT)
  async session(@Req() req, @Res({ passthrough: true }) res) {
    const { fresh, count } = await bump(this.database.pool, this.cookies.uid(req));
    if (fresh !== undefined) this.cookies.setUid(res, fresh);
    return `Count is ${count}`;
  }

  @Get('hash')
  @Header('Content-Type', TEXT)
  async hash(@Query('n') n: string | undefined, @Res({ passthrough: true }) res) {
    const reason = hashing.reason(n);
    if (reason !== null) {
      res.status(400);
      return reason;
    }
    return hashing.iteratedSha256Hex(await readFile(process.env.HASH_FILE), Number(n));
  }
}
