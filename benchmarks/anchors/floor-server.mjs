// A floor for the anchors (benchmarks/anchors/koa-floor.mjs): the cheapest server of a kind
// answering one ticket's worth of constant bytes, with the headers the service sends.
//   node floor-server.mjs <node|koa> <cert.pem> <key.pem>   (prints {"port":N})
//   node   bare node:https
//   koa    Koa 3 + @koa/router, as any Koa app answers (ctx.set, ctx.status, ctx.body), no middleware
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createRequire } from 'node:module';
import { announce } from './captured.mjs';

const [kind, certFile, keyFile] = process.argv.slice(2);
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

let server;
if (kind === 'node') {
  server = createServer(tls, (req, res) => {
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
} else if (kind === 'koa') {
  // koa and @koa/router are the HTTP adapter's dependencies (pnpm does not hoist them here).
  const require = createRequire(new URL('../../packages/adapter-http-koa/package.json', import.meta.url));
  const { default: Koa } = await import(require.resolve('koa'));
  const routerModule = await import(require.resolve('@koa/router'));
  const Router = routerModule.default?.Router ?? routerModule.Router ?? routerModule.default;
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
  server = createServer(tls, app.callback());
} else {
  console.error(`unknown kind ${kind}`);
  process.exit(2);
}
server.keepAliveTimeout = 5_000; // the service's
server.listen(0, '127.0.0.1', () => announce(server.address().port, () => server.close()));
