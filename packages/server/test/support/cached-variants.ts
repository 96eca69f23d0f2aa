import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { request, type Agent } from 'node:https';
import { gunzipSync } from 'node:zlib';
import type { Api } from './harness.js';
import type { Json } from './resources.js';

// What the cache-consistency suites (http/cache-consistency.test.ts, and its sender for
// queue-cache-consistency.test.ts) read and check: how each
// variant of a request (who, presentation, gzip, revalidation) is sent and what its body
// holds, the service's ETag rule recomputed, the revision a subject names.

export interface Got {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * Sends requests over `agent`'s kept-alive connections to the API, a body as a merge patch,
 * reading a gzipped answer back to text (the consistency suites read many answers at once).
 */
export const keptAliveSender =
  (api: Api, agent: Agent) =>
  (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Got> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
      const all = {
        ...headers,
        ...(payload === null
          ? {}
          : { 'content-type': 'application/merge-patch+json', 'content-length': String(payload.length) }),
      };
      const req = request(
        { host: '127.0.0.1', port: api.server.port, method, path, headers: all, agent, servername: 'localhost' },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
          });
        },
      );
      req.on('error', reject);
      req.end(payload ?? undefined);
    });

export const header = (g: Got, name: string): string | undefined => {
  const v = g.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** The service's ETag rule, recomputed from what was received. */
export const etagOf = (content: string): string => `"${createHash('sha1').update(content).digest('base64url')}"`;

export const revisionOf = (subject: unknown): number => {
  expect(subject)
    .to.be.a('string')
    .and.match(/^Revision \d+$/);
  return Number((subject as string).slice('Revision '.length));
};

export interface Variant {
  readonly name: string;
  readonly path: (ticketId: number) => string;
  readonly who: 'admin' | 'agent' | 'customer';
  readonly gzip: boolean;
  /** Sends If-None-Match with the last ETag this reader got. */
  readonly revalidate?: boolean;
  /** The JSONP callback asked for. */
  readonly callback?: string;
  /** The ticket's representation(s) in the parsed body, and the total for a list. */
  readonly tickets: (body: unknown) => { readonly tickets: readonly Json[]; readonly total: number | null };
}

export const single = (body: unknown): { tickets: Json[]; total: null } => ({ tickets: [body as Json], total: null });
export const enveloped =
  (inner: (r: unknown) => { tickets: readonly Json[]; total: number | null }) => (body: unknown) =>
    inner((body as { response: unknown }).response);

export const variants: readonly Variant[] = [
  { name: 'admin, pretty', path: (id) => `/v1/tickets/${id}`, who: 'admin', gzip: false, tickets: single },
  // The same URLs and presentation as the admin's: only the caller differs.
  { name: 'customer, pretty', path: (id) => `/v1/tickets/${id}`, who: 'customer', gzip: true, tickets: single },
  {
    name: 'admin, compact, gzip',
    path: (id) => `/v1/tickets/${id}?pretty=false`,
    who: 'admin',
    gzip: true,
    tickets: single,
  },
  {
    name: 'agent, envelope',
    path: (id) => `/v1/tickets/${id}?envelope=true`,
    who: 'agent',
    gzip: true,
    tickets: enveloped(single),
  },
  {
    name: 'customer, JSONP',
    path: (id) => `/v1/tickets/${id}?callback=app.got`,
    who: 'customer',
    gzip: false,
    callback: 'app.got',
    tickets: enveloped(single),
  },
  {
    name: 'admin, fields',
    path: (id) => `/v1/tickets/${id}?fields=id,subject,updated_at`,
    who: 'admin',
    gzip: true,
    tickets: single,
  },
  {
    name: 'customer, embed',
    path: (id) => `/v1/tickets/${id}?embed=customer,assigned_user`,
    who: 'customer',
    gzip: true,
    tickets: single,
  },
  {
    name: 'agent, revalidating',
    path: (id) => `/v1/tickets/${id}`,
    who: 'agent',
    gzip: true,
    revalidate: true,
    tickets: single,
  },
  {
    name: 'admin, revalidating',
    path: (id) => `/v1/tickets/${id}?pretty=false`,
    who: 'admin',
    gzip: false,
    revalidate: true,
    tickets: single,
  },
  {
    name: 'admin, list',
    path: () => '/v1/tickets?q=quokka&per_page=5',
    who: 'admin',
    gzip: true,
    tickets: (body) => ({ tickets: body as Json[], total: null }),
  },
  {
    name: 'customer, list',
    path: () => '/v1/tickets?q=quokka&per_page=5',
    who: 'customer',
    gzip: false,
    tickets: (body) => ({ tickets: body as Json[], total: null }),
  },
  {
    name: 'customer, list, envelope, revalidating',
    path: () => '/v1/tickets?q=quokka&per_page=5&envelope=true',
    who: 'customer',
    gzip: true,
    revalidate: true,
    tickets: enveloped((r) => ({ tickets: r as Json[], total: null })),
  },
];

export const adminCompact = variants.find((v) => v.name === 'admin, compact, gzip') as Variant;

/** Whole seconds of an ISO time, as an HTTP date: what Last-Modified must say. */
export const httpDate = (iso: unknown): string =>
  new Date(Math.floor(Date.parse(iso as string) / 1000) * 1000).toUTCString();
