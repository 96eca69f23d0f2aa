import { promisify } from 'node:util';
import { gzip as gzipAsync, gzipSync } from 'node:zlib';
import type { AppContext } from '../state.js';
import { requestHeader } from './request-header.js';

// gzip when the client accepts it. Streaming gzip (koa-compress) of small JSON bodies costs
// several times the throughput of compressing them in one synchronous call
// (docs/benchmarks.md, "Figures behind the code"), so small bodies are gzipped synchronously;
// large ones go to the zlib thread pool so they do not hold the event loop. The contract
// says gzip whenever the client accepts it, so by default every non-empty body is gzipped
// (a threshold can be configured; below it, bodies are sent as they are).

const gzip = promisify(gzipAsync);

/** Above this size, compression runs on the thread pool. */
export const syncCompressionLimit = 64 * 1024;

/** Whether an Accept-Encoding value accepts gzip (q > 0 for gzip, x-gzip or *). */
const parseAcceptsGzip = (acceptEncoding: string): boolean => {
  let wildcard = false;
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const accepted = !Number.isNaN(weight) && weight > 0;
    if (coding.trim() === 'gzip' || coding.trim() === 'x-gzip') return accepted;
    if (coding.trim() === '*') wildcard = accepted;
  }
  return wildcard;
};

// A client sends the same Accept-Encoding on every request, and most clients send one of a
// few values: the last answer is kept rather than parsing the header each time.
let lastAcceptEncoding = '';
let lastAccepts = false;

/** Whether an Accept-Encoding value accepts gzip (q > 0 for gzip, x-gzip or *). */
export const acceptsGzip = (acceptEncoding: string): boolean => {
  if (acceptEncoding !== lastAcceptEncoding) {
    lastAccepts = parseAcceptsGzip(acceptEncoding);
    lastAcceptEncoding = acceptEncoding;
  }
  return lastAccepts;
};

/**
 * Whether an answer's body goes gzipped: it reaches the threshold (HttpOptions'
 * compressionThreshold, 1 byte by default) and the request's Accept-Encoding takes gzip. The
 * one place for the rendered answers (render.ts) and the ready ones (raw-body.ts).
 */
export const sendsGzip = (request: Pick<AppContext, 'req'>, bodyLength: number, threshold: number): boolean =>
  bodyLength >= threshold && acceptsGzip(requestHeader(request, 'accept-encoding'));

export const gzipBody = async (body: Buffer): Promise<Buffer> =>
  body.length <= syncCompressionLimit ? gzipSync(body) : gzip(body);
