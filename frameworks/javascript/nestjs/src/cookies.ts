import { Injectable } from '@nestjs/common';

const NAME = 'uid';
const OPTIONS = { signed: true, httpOnly: true, sameSite: 'lax' as const, path: '/' };

// The signed uid cookie through each adapter's cookie plugin: cookie-parser on Express,
// @fastify/cookie on Fastify (main.ts registers them). A tampered or unsigned cookie is no visitor.
@Injectable()
export abstract class Cookies {
  abstract uid(req): string | undefined;
  abstract setUid(res, uid: string): void;
}

export class ExpressCookies extends Cookies {
  uid(req) {
    return req.signedCookies[NAME] || undefined;
  }

  setUid(res, uid: string) {
    res.cookie(NAME, uid, OPTIONS);
  }
}

export class FastifyCookies extends Cookies {
  uid(req) {
    const raw = req.cookies[NAME];
    if (raw === undefined) return undefined;
    const unsigned = req.unsignCookie(raw);
    return unsigned.valid ? unsigned.value : undefined;
  }

  setUid(res, uid: string) {
    res.setCookie(NAME, uid, OPTIONS);
  }
}
