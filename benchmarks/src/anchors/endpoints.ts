// What is measured: four resources (routes), loaded as six endpoints. The same requests, with
// the same Authorization header, go to the three servers; the anchors ignore the header.
import { searchWord } from './seed-data.js';

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The request body as sent (JSON text). */
  readonly body?: string;
}

export interface Routes {
  readonly create: Route;
  readonly ticket: Route;
  readonly list: Route;
  readonly search: Route;
}

export interface Endpoint {
  readonly name: string;
  readonly route: Route;
  readonly headers: Readonly<Record<string, string>>;
  readonly expect: number;
}

/** The requests, for a service seeded by `startService`. */
export const routesFor = ({ ticketIds, customerId }: { ticketIds: readonly number[]; customerId: number }): Routes => ({
  // POST first: the ticket it makes is in the list and search pages captured after it.
  create: {
    method: 'POST',
    path: '/v1/tickets',
    body: JSON.stringify({
      subject: 'Export to the printer fails',
      summary: 'The export button spins forever.',
      priority: 'high',
      customer_id: customerId,
    }),
  },
  // A ticket from the middle of the seeded ones.
  ticket: { method: 'GET', path: `/v1/tickets/${ticketIds[Math.floor(ticketIds.length / 2)] ?? 0}` },
  list: { method: 'GET', path: '/v1/tickets?per_page=30' },
  search: { method: 'GET', path: `/v1/tickets?q=${searchWord}&per_page=30` },
});

const gzip = { 'accept-encoding': 'gzip' };

/**
 * The endpoints, in the order they are loaded: POST last, so the pages the service serves stay
 * the captured ones until then. `etag` is the ticket's, from the capture.
 */
export const endpointsFor = (routes: Routes, { etag, token }: { etag: string; token: string }): Endpoint[] =>
  [
    { name: 'GET ticket, plain', route: routes.ticket, headers: {}, expect: 200 },
    { name: 'GET ticket, gzip', route: routes.ticket, headers: gzip, expect: 200 },
    { name: 'GET ticket, 304', route: routes.ticket, headers: { ...gzip, 'if-none-match': etag }, expect: 304 },
    { name: 'GET list of 30, gzip', route: routes.list, headers: gzip, expect: 200 },
    { name: `GET ?q=${searchWord} (30), gzip`, route: routes.search, headers: gzip, expect: 200 },
    { name: 'POST ticket, plain', route: routes.create, headers: { 'content-type': 'application/json' }, expect: 201 },
  ].map((e) => ({ ...e, headers: { authorization: `Bearer ${token}`, ...e.headers } }));
