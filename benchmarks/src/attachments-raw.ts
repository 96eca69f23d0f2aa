// The baseline of the attachments benchmark: plain node:https, no framework. GET /file pipes
// FILE from disk; GET /ticket answers TICKET (a ticket's JSON, as the service answered it);
// POST /upload writes the request body to a new file in DIR and fsyncs it before answering
// 201. Prints {"port": n} once listening.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const { CERT = '', KEY = '', FILE = '', DIR = '', TICKET = '' } = process.env;
let n = 0;
const handle = async (req: IncomingMessage, res: ServerResponse) => {
  if (req.method === 'GET' && req.url === '/ticket') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(TICKET) }).end(TICKET);
    return;
  }
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': statSync(FILE).size });
    createReadStream(FILE).pipe(res);
    return;
  }
  const path = join(DIR, `upload-${(n += 1)}`);
  const fh = await open(path, 'wx', 0o600);
  for await (const chunk of req) await fh.write(chunk as Buffer);
  await fh.sync();
  await fh.close();
  await unlink(path);
  res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
};
const server = createServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, (req, res) => {
  handle(req, res).catch((e: unknown) => {
    res.destroy(e instanceof Error ? e : undefined);
  });
});
// Kept-alive connections wait between bursts as long as the service's do (no reset on reuse).
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
