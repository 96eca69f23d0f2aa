// The baseline of the attachments benchmark: plain node:https, no framework. GET /file pipes
// FILE from disk; GET /ticket answers TICKET (a ticket's JSON, as the service answered it);
// POST /upload writes the request body to a new file in DIR and fsyncs it before answering
// 201. Prints {"port": n} once listening.
import { createReadStream, statSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

const { CERT, KEY, FILE, DIR, TICKET } = process.env;
let n = 0;
const server = createServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, async (req, res) => {
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
  for await (const chunk of req) await fh.write(chunk);
  await fh.sync();
  await fh.close();
  await unlink(path);
  res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
});
// Kept-alive connections wait between bursts as long as the service's do (no reset on reuse).
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
