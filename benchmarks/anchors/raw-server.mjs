// Anchor (a): bare node:https serving the captured bytes. Per request it does what any server
// must: find the answer, honour If-None-Match with a 304, gzip the body when the client takes
// gzip (zlib.gzipSync, every time: nothing cached), write headers and body.
//   node raw-server.mjs <capture.json> <cert.pem> <key.pem> [work µs]   (prints {"port":N})
// `work µs` (budget.mjs only; bench:anchors never gives it): that much CPU time spent per
// request before answering, a stand-in for what a real server does besides writing bytes.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { gzipSync } from 'node:zlib';
import { acceptsGzip, announce, loadCapture } from './captured.mjs';

const [captureFile, certFile, keyFile, workArg = '0'] = process.argv.slice(2);
const answers = loadCapture(captureFile);
const workMs = Number(workArg) / 1000;
const busy = () => {
  const until = performance.now() + workMs;
  while (performance.now() < until);
};

const respond = (req, res, a) => {
  if (a.etag !== null && req.headers['if-none-match'] === a.etag) {
    res.writeHead(304, a.notModifiedHeaders);
    res.end();
  } else if (a.gzipHeaders !== null && acceptsGzip(req.headers['accept-encoding'])) {
    const body = gzipSync(a.body);
    res.writeHead(a.status, { ...a.gzipHeaders, 'content-encoding': 'gzip', 'content-length': body.length });
    res.end(body);
  } else {
    res.writeHead(a.status, { ...a.headers, 'content-length': a.body.length });
    res.end(a.body);
  }
};

const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  if (workMs > 0) busy();
  const a = answers.get(`${req.method} ${req.url}`);
  if (a === undefined) {
    res.writeHead(404).end();
  } else if (req.method === 'GET') {
    respond(req, res, a);
  } else {
    // Read the request body before answering, as a server that uses it must.
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => respond(req, res, a));
  }
});
server.keepAliveTimeout = 5_000; // the service's
server.listen(0, '127.0.0.1', () => announce(server.address().port, () => server.close()));
