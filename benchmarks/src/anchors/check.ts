// Before a server is loaded with an endpoint, one request checks that it answers what was
// captured: the anchors the same bytes (once gunzipped) and ETag, the service the same too
// (a POST makes a new ticket, so only its status is checked there).
import type { HttpsClient } from '../support/https-client.js';
import type { Replayed } from './captured.js';
import type { Endpoint } from './endpoints.js';

export const checkAnswer = async (
  http: HttpsClient,
  endpoint: Endpoint,
  captured: Replayed,
  { exact }: { exact: boolean },
): Promise<string[]> => {
  const { method, path, body } = endpoint.route;
  const a = await http.send({ method, path, body, headers: endpoint.headers });
  const problems: string[] = [];
  if (a.status !== endpoint.expect) problems.push(`status ${a.status}, expected ${endpoint.expect}`);
  const gzipped = endpoint.headers['accept-encoding'] === 'gzip' && a.status === 200;
  const encoding = a.headers['content-encoding'];
  if (gzipped && encoding !== 'gzip') problems.push('not gzipped');
  if (!gzipped && encoding !== undefined) problems.push(`content-encoding ${encoding}`);
  const etag = captured.headers.etag;
  if (a.headers.etag !== etag && (method === 'GET' || exact))
    problems.push(`etag ${a.headers.etag ?? 'none'}, captured ${String(etag)}`);
  if (a.status !== 304 && (method === 'GET' || exact) && !a.plain.equals(captured.body))
    problems.push('body differs from the captured one');
  return problems;
};
