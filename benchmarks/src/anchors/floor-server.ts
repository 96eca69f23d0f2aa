// A floor for the anchors (koa-floor.ts): the cheapest server of a kind answering one ticket's
// worth of constant bytes, with the headers the service sends.
//   node floor-server.js <node|koa> <cert.pem> <key.pem>   (prints {"port":N})
//   node   bare node:https
//   koa    Koa 3 + @koa/router, as any Koa app answers (ctx.set, ctx.status, ctx.body), no middleware
import { Router } from '@koa/router';
import Koa from 'koa';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { announce } from './captured.js';

const [kind, certFile = '', keyFile = ''] = process.argv.slice(2);
const body = Buffer.from(
  JSON.stringify({
    id: 1001,
    subject: 'Printer on the third floor prints blank pages',
    description: 'x'.repeat(380),
    state: 'open',
    priority: 'normal',
  }),
);
const etag = '"_ysmBphbHelN8wFJ8hI-RLAuW_c"';
const headers = {
  'X-Request-Id': '4f6d0c4e-3a59-4bb7-9a11-2f0b1d8f6c21',
  'X-RateLimit-Limit': '1000000000',
  'X-RateLimit-Remaining': '999999999',
  'X-RateLimit-Reset': '1795000000',
  'X-Api-Version': '2024-01-01',
  Vary: 'Accept-Encoding, Authorization',
  'Cache-Control': 'private, no-cache',
  ETag: etag,
  'Last-Modified': 'Tue, 24 Nov 2026 03:00:00 GMT',
};
const tls = { cert: readFileSync(certFile), key: readFileSync(keyFile) };

const serverOf = (): Server => {
  if (kind === 'node') {
    return createServer(tls, (req, res) => {
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers).end();
      } else {
        res
          .writeHead(200, {
            ...headers,
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Length': body.length,
          })
          .end(body);
      }
    });
  }
  if (kind === 'koa') {
    const app = new Koa();
    const router = new Router();
    router.get('/v1/tickets/:id', (ctx) => {
      ctx.set(headers);
      if (ctx.get('If-None-Match') === etag) {
        ctx.status = 304;
        return;
      }
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = body;
    });
    app.use(router.routes());
    const listener = app.callback();
    return createServer(tls, (req, res) => {
      void listener(req, res);
    });
  }
  console.error(`unknown kind ${kind ?? '(none)'}`);
  process.exit(2);
};
const server = serverOf();
server.keepAliveTimeout = 5_000; // the service's
server.listen(0, '127.0.0.1', () => {
  announce((server.address() as AddressInfo).port, () => server.close());
});
