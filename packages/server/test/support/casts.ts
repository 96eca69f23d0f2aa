import { startApi, type Api } from './harness.js';
import { createTicket, type CreatedTicket } from './http-conventions.js';

// The API and the people a family of HTTP suites starts with, made in one place so that the
// files a suite was split into share it (each file starts its own API in its `before`).

/** A user with a token. */
export interface Person {
  id: number;
  token: string;
}

/** http/tickets*.test.ts: an admin, an agent and two customers. */
export const ticketsCast = async (): Promise<{
  api: Api;
  admin: string;
  agent: Person;
  customer: Person;
  other: Person;
}> => {
  // Tokens outlive the weeks the clock is moved forward.
  const api = await startApi({ TOKEN_TTL_S: String(365 * 24 * 3600) });
  return {
    api,
    admin: await api.adminToken(),
    agent: await api.userWithToken('agent', 'Grace Hopper'),
    customer: await api.userWithToken('customer', 'Ada Lovelace'),
    other: await api.userWithToken('customer', 'Charles Babbage'),
  };
};

/** An API with an admin, a customer (with an e-mail) and one ticket of theirs, created by the admin with `fields`. */
export interface OneTicketCast {
  api: Api;
  admin: string;
  customer: Person & { email: string };
  ticket: CreatedTicket;
}

/** http/caching*.test.ts, conventions*.test.ts, errors*.test.ts: see OneTicketCast. */
export const oneTicketCast = async (
  customerName: string,
  fields: Readonly<Record<string, unknown>> = {},
): Promise<OneTicketCast> => {
  const api = await startApi();
  const admin = await api.adminToken();
  const customer = await api.userWithToken('customer', customerName);
  return { api, admin, customer, ticket: await createTicket(api, admin, customer.id, fields) };
};

/** http/errors*.test.ts: one ticket's cast and a creation body for its customer. */
export const errorsCast = async (): Promise<OneTicketCast & { newTicket: () => string }> => {
  const cast = await oneTicketCast('Edsger Dijkstra');
  const newTicket = (): string => JSON.stringify({ subject: 'Media types', customer_id: cast.customer.id });
  return { ...cast, newTicket };
};

/** http/caching*.test.ts: one ticket's cast, the ticket with a summary long enough to compress. */
export const cachingCast = (): Promise<OneTicketCast> =>
  oneTicketCast('Barbara Liskov', { subject: 'Cache me', summary: 'x'.repeat(400) });

/** http/conventions*.test.ts: one ticket's cast, the ticket with a summary long enough to be worth compressing. */
export const conventionsCast = (): Promise<OneTicketCast> =>
  oneTicketCast('Grace Hopper', {
    subject: 'Pretty printing',
    summary: 'A summary long enough to be worth compressing. '.repeat(4),
  });

/** http/events*.test.ts: an admin, an agent and a customer. */
export const eventsCast = async (): Promise<{ api: Api; admin: string; agent: Person; customer: Person }> => {
  const api = await startApi();
  return {
    api,
    admin: await api.adminToken(),
    agent: await api.userWithToken('agent', 'Ansel Agent'),
    customer: await api.userWithToken('customer', 'Cleo Customer'),
  };
};
