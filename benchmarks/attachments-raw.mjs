// The baseline of the attachments benchmark: plain node:https, no framework. GET /file pipes
// FILE from disk; POST /upload writes the request body to a new file in DIR and fsyncs it
// before answering 201. Prints {"port": n} once listening.
import { createReadStream, statSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

const { CERT, KEY, FILE, DIR } = process.env;
let n = 0;
const server = createServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, async (req, res) => {
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
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
