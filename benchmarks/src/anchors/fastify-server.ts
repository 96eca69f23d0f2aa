// Anchor (b): Fastify 5 + @fastify/compress over TLS serving the captured bytes, written as a
// Fastify user would: one route per path, the handler returns the body, the plugin gzips it
// (its threshold set to 0: the service gzips every non-empty body), If-None-Match answered
// with a 304 by the handler. POST bodies go through Fastify's JSON parser.
//   node fastify-server.js <capture.json> <cert.pem> <key.pem>   (prints {"port":N})
import compress from '@fastify/compress';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { announce, loadCapture } from './captured.js';

const [captureFile = '', certFile = '', keyFile = ''] = process.argv.slice(2);
const answers = loadCapture(captureFile);
// @fastify/compress appends "accept-encoding" to Vary unless it finds it in lower case: the
// same tokens in lower case keep the answer's bytes the service's length.
for (const a of answers.values()) {
  const vary = a.headers.vary;
  if (typeof vary === 'string') a.headers = { ...a.headers, vary: vary.toLowerCase() };
}

const app = Fastify({
  logger: false,
  https: { cert: readFileSync(certFile), key: readFileSync(keyFile) },
  keepAliveTimeout: 5_000,
});
await app.register(compress, { global: true, threshold: 0, encodings: ['gzip'] });

const handler = (req: FastifyRequest, reply: FastifyReply) => {
  const a = answers.get(`${req.method} ${req.url}`);
  if (a === undefined) return reply.code(404).send();
  if (a.etag !== null && req.headers['if-none-match'] === a.etag)
    return reply
      .code(304)
      .headers(a.notModifiedHeaders ?? {})
      .send();
  void reply.code(a.status).headers(a.headers);
  return Promise.resolve(a.body);
};
const routes = new Set([...answers.keys()].map((key) => key.split('?')[0] ?? key));
for (const route of routes) {
  const [method = 'GET', url = '/'] = route.split(' ');
  app.route({ method, url, handler });
}
await app.listen({ port: 0, host: '127.0.0.1' });
announce((app.server.address() as AddressInfo).port, () => void app.close());
