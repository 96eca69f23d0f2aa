// Anchor (a): bare node:https serving the captured bytes. Per request it does what any server
// must: find the answer, honour If-None-Match with a 304, gzip the body when the client takes
// gzip (zlib.gzipSync, every time: nothing cached), write headers and body.
//   node raw-server.mjs <capture.json> <cert.pem> <key.pem> [work µs | contract]   (prints {"port":N})
// The last argument is budget.mjs's only (bench:anchors never gives it):
// - `work µs`: that much CPU time spent per request before answering, a stand-in for what a
//   real server does besides writing bytes.
// - `contract`: the work the API contract asks of every request, written with no framework
//   and nothing else (contract-work.mjs): the floor for any server that keeps the contract.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { gzipSync } from 'node:zlib';
import { acceptsGzip, announce, loadCapture } from './captured.mjs';
import { constantHeaders, contractWorker } from './contract-work.mjs';

const [captureFile, certFile, keyFile, mode = '0'] = process.argv.slice(2);
const answers = loadCapture(captureFile);
const workMs = mode === 'contract' ? 0 : Number(mode) / 1000;
const busy = () => {
  const until = performance.now() + workMs;
  while (performance.now() < until);
};

// The contract's work (contract-work.mjs): the per-request headers it sets replace the
// captured ones. The token is the service's, captured with the answers (BENCH_TOKEN).
const contract = mode === 'contract' ? contractWorker(process.env.BENCH_TOKEN ?? '') : null;
if (contract !== null) {
  for (const a of answers.values()) {
    a.constant = { headers: constantHeaders(a.headers), gzipHeaders: constantHeaders(a.gzipHeaders), notModifiedHeaders: constantHeaders(a.notModifiedHeaders) };
  }
}

/** `dynamic`: the contract's headers (then the captured ones without theirs), or null (raw: the captured ones as they are). */
const respond = (req, res, a, dynamic) => {
  if (a.etag !== null && req.headers['if-none-match'] === a.etag) {
    res.writeHead(304, dynamic === null ? a.notModifiedHeaders : { ...a.constant.notModifiedHeaders, ...dynamic });
    res.end();
  } else if (a.gzipHeaders !== null && acceptsGzip(req.headers['accept-encoding'])) {
    const body = gzipSync(a.body);
    res.writeHead(a.status, { ...(dynamic === null ? a.gzipHeaders : { ...a.constant.gzipHeaders, ...dynamic }), 'content-encoding': 'gzip', 'content-length': body.length });
    res.end(body);
  } else {
    res.writeHead(a.status, { ...(dynamic === null ? a.headers : { ...a.constant.headers, ...dynamic }), 'content-length': a.body.length });
    res.end(a.body);
  }
};

const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  if (workMs > 0) busy();
  const dynamic = contract === null ? null : contract.work(req, res);
  if (contract !== null && dynamic === null) return;
  const a = answers.get(`${req.method} ${req.url}`);
  if (a === undefined) {
    res.writeHead(404).end();
  } else if (req.method === 'GET') {
    respond(req, res, a, dynamic);
  } else {
    // Read the request body before answering, as a server that uses it must.
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => respond(req, res, a, dynamic));
  }
});
server.keepAliveTimeout = 5_000; // the service's
server.listen(0, '127.0.0.1', () => announce(server.address().port, () => server.close()));
