// One request at a time, for seeding, capturing and checking (the load itself is autocannon's).
import { Agent, request } from 'node:https';
import { gunzipSync } from 'node:zlib';

/** A keep-alive client for one server, trusting only the benchmark's certificate. */
export const client = (port, ca) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16, ca });
  /** Resolves with status, headers and the body's bytes (and `text`, gunzipped if need be). */
  const send = ({ method = 'GET', path, headers = {}, body }) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? null : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      const all = { ...headers };
      if (payload !== null) {
        all['content-type'] ??= 'application/json';
        all['content-length'] = String(payload.length);
      }
      const req = request(
        { host: '127.0.0.1', port, method, path, headers: all, agent, ca, servername: 'localhost' },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const plain = res.headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes;
            resolve({ status: res.statusCode, headers: res.headers, bytes, plain, text: plain.toString('utf8') });
          });
        },
      );
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
  return { send, close: () => agent.destroy() };
};
