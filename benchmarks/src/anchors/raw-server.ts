// Anchor (a): bare node:https serving the captured bytes. Per request it does what any server
// must: find the answer, honour If-None-Match with a 304, gzip the body when the client takes
// gzip (zlib.gzipSync, every time: nothing cached), write headers and body.
//   node raw-server.js <capture.json> <cert.pem> <key.pem> [work µs | contract]   (prints {"port":N})
// The last argument is budget.ts's only (bench:anchors never gives it):
// - `work µs`: that much CPU time spent per request before answering, a stand-in for what a
//   real server does besides writing bytes.
// - `contract`: the work the API contract asks of every request, written with no framework
//   and nothing else (contract-work.ts): the floor for any server that keeps the contract.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { acceptsGzip, announce, loadCapture, type Replayed } from './captured.js';
import { constantHeaders, contractWorker, type Worked } from './contract-work.js';

const [captureFile = '', certFile = '', keyFile = '', mode = '0'] = process.argv.slice(2);
const answers = loadCapture(captureFile);
const workMs = mode === 'contract' ? 0 : Number(mode) / 1000;
const busy = () => {
  const until = performance.now() + workMs;
  while (performance.now() < until);
};

// The contract's work (contract-work.ts): the per-request headers it sets replace the
// captured ones. The token is the service's, captured with the answers (BENCH_TOKEN).
const contract = mode === 'contract' ? contractWorker(process.env.BENCH_TOKEN ?? '') : null;
const constant = new Map<Replayed, { headers: string[]; gzipHeaders: string[]; notModifiedHeaders: string[] }>();
if (contract !== null) {
  for (const a of answers.values()) {
    constant.set(a, {
      headers: constantHeaders(a.headers) ?? [],
      gzipHeaders: constantHeaders(a.gzipHeaders) ?? [],
      notModifiedHeaders: constantHeaders(a.notModifiedHeaders) ?? [],
    });
  }
}

const respond = (req: IncomingMessage, res: ServerResponse, a: Replayed) => {
  if (a.etag !== null && req.headers['if-none-match'] === a.etag) {
    res.writeHead(304, a.notModifiedHeaders ?? {});
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
const respondWithContract = (req: IncomingMessage, res: ServerResponse, a: Replayed, w: Worked) => {
  const perRequest = w.headers;
  const fixed = constant.get(a);
  if (contract === null || fixed === undefined) throw new Error('no contract worker');
  if (a.etag !== null && req.headers['if-none-match'] === a.etag) {
    res.writeHead(304, fixed.notModifiedHeaders.concat(perRequest));
    res.end();
  } else if (a.gzipHeaders !== null && acceptsGzip(req.headers['accept-encoding'])) {
    const body = gzipSync(a.body);
    res.writeHead(
      a.status,
      fixed.gzipHeaders.concat(perRequest, ['content-encoding', 'gzip', 'content-length', String(body.length)]),
    );
    res.end(body);
  } else {
    res.writeHead(a.status, fixed.headers.concat(perRequest, ['content-length', String(a.body.length)]));
    res.end(a.body);
  }
  contract.written(req, res, w);
};

const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  if (workMs > 0) busy();
  const w = contract === null ? null : contract.work(req, res);
  if (contract !== null && w === null) return;
  const answer =
    w === null
      ? respond
      : (rq: IncomingMessage, rs: ServerResponse, a: Replayed) => {
          respondWithContract(rq, rs, a, w);
        };
  const a = answers.get(`${req.method ?? ''} ${req.url ?? ''}`);
  if (a === undefined) {
    res.writeHead(404).end();
  } else if (req.method === 'GET') {
    answer(req, res, a);
  } else {
    // Read the request body before answering, as a server that uses it must.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(req, res, a);
    });
  }
});
server.keepAliveTimeout = 5_000; // the service's
server.listen(0, '127.0.0.1', () => {
  announce((server.address() as AddressInfo).port, () => server.close());
});
