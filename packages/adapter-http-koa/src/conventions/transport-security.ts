import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { problem } from '../errors/http-problem.js';

// Every request must arrive over TLS. A plain-HTTP request is refused with 403 and a
// JSON body, never redirected (a redirect would teach clients that sending credentials
// in clear text works). Behind a trusted proxy, X-Forwarded-Proto tells how the client
// came in: a request forwarded as http is refused the same way.

export const arrivedOverTls = (req: IncomingMessage, trustProxy: boolean): boolean => {
  if ((req.socket as Partial<TLSSocket>).encrypted !== true) return false;
  if (!trustProxy) return true;
  const forwarded = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === undefined || first === '' || first === 'https';
};

export const tlsRequired = (publicUrl: string) =>
  problem(
    'tlsRequired',
    `this API is served over HTTPS only; send the request to ${publicUrl} (requests over plain HTTP are never redirected)`,
  );
