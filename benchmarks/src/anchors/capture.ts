// The exact answers of the service, taken before any load, for the anchors to replay: status,
// headers and body of the plain answer, the headers of the gzip answer (its body is the plain
// body gzipped) and the headers of the 304. Headers the server itself writes per connection or
// per body (length, encoding, date, keep-alive) are left to each server.
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpsClient } from '../support/https-client.js';
import type { Routes } from './endpoints.js';

const perConnection = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
]);

export type Headers = Record<string, string | string[]>;

const replayable = (headers: IncomingHttpHeaders): Headers => {
  const kept: Headers = {};
  for (const [name, value] of Object.entries(headers))
    if (!perConnection.has(name) && value !== undefined) kept[name] = value;
  return kept;
};

/** One captured answer, as the capture file holds it (the body in base64). */
export interface CapturedRoute {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  gzip: { readonly headers: Headers; readonly bytes: number } | null;
  notModified: { readonly etag: string; readonly headers: Headers } | null;
}

export interface Capture {
  readonly routes: readonly CapturedRoute[];
}

/** Answers `{ routes: [...] }`, the file the anchors load. */
export const captureAnswers = async (http: HttpsClient, token: string, routes: Routes): Promise<Capture> => {
  const auth = { authorization: `Bearer ${token}` };
  const captured: CapturedRoute[] = [];
  for (const { method, path, body } of Object.values(routes) as Routes[keyof Routes][]) {
    const plain = await http.send({ method, path, body, headers: auth });
    if (plain.status >= 400)
      throw new Error(`capturing ${method} ${path}: ${plain.status} ${plain.text.slice(0, 300)}`);
    const entry: CapturedRoute = {
      method,
      path,
      status: plain.status,
      headers: replayable(plain.headers),
      body: plain.bytes.toString('base64'),
      gzip: null,
      notModified: null,
    };
    if (method === 'GET') {
      const gz = await http.send({ method, path, headers: { ...auth, 'accept-encoding': 'gzip' } });
      if (gz.headers['content-encoding'] !== 'gzip' || !gz.plain.equals(plain.bytes)) {
        throw new Error(`capturing ${path}: the gzip answer is not the plain answer gzipped`);
      }
      entry.gzip = { headers: replayable(gz.headers), bytes: gz.bytes.length };
      const etag = plain.headers.etag;
      if (etag !== undefined) {
        const nm = await http.send({
          method,
          path,
          headers: { ...auth, 'accept-encoding': 'gzip', 'if-none-match': etag },
        });
        if (nm.status !== 304) throw new Error(`capturing ${path} with If-None-Match: expected 304, got ${nm.status}`);
        entry.notModified = { etag, headers: replayable(nm.headers) };
      }
    }
    captured.push(entry);
  }
  return { routes: captured };
};
