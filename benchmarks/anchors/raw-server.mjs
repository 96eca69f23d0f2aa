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
    a.constant = {
      headers: constantHeaders(a.headers),
      gzipHeaders: constantHeaders(a.gzipHeaders),
      notModifiedHeaders: constantHeaders(a.notModifiedHeaders),
    };
  }
}

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

/** The same answers with the contract's per-request headers in place of the captured ones; then the log line. */
const respondWithContract = (req, res, a, w) => {
  const perRequest = w.headers;
  if (a.etag !== null && req.headers['if-none-match'] === a.etag) {
    res.writeHead(304, a.constant.notModifiedHeaders.concat(perRequest));
    res.end();
  } else if (a.gzipHeaders !== null && acceptsGzip(req.headers['accept-encoding'])) {
    const body = gzipSync(a.body);
    res.writeHead(
      a.status,
      a.constant.gzipHeaders.concat(perRequest, ['content-encoding', 'gzip', 'content-length', String(body.length)]),
    );
    res.end(body);
  } else {
    res.writeHead(a.status, a.constant.headers.concat(perRequest, ['content-length', String(a.body.length)]));
    res.end(a.body);
  }
  contract.written(req, res, w);
};

const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  if (workMs > 0) busy();
  const w = contract === null ? null : contract.work(req, res);
  if (contract !== null && w === null) return;
  const answer = w === null ? respond : (rq, rs, a) => respondWithContract(rq, rs, a, w);
  const a = answers.get(`${req.method} ${req.url}`);
  if (a === undefined) {
    res.writeHead(404).end();
  } else if (req.method === 'GET') {
    answer(req, res, a);
  } else {
    // Read the request body before answering, as a server that uses it must.
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => answer(req, res, a));
  }
});
server.keepAliveTimeout = 5_000; // the service's
server.listen(0, '127.0.0.1', () => announce(server.address().port, () => server.close()));
