import { expect } from 'chai';
import { startApi, type Answer, type Api } from './harness.js';
import { expectError } from './oauth.js';

// What the role suites (http/roles*.test.ts) start with: two customers, an agent and an
// admin; a ticket of each customer, a public reply and an internal note on Alice's, a group.

export interface Caller {
  readonly id: number;
  readonly email: string;
  readonly password: string;
  readonly token: string;
}
export interface TicketBody {
  readonly id: number;
  readonly subject: string;
  readonly state: string;
  readonly priority: string;
  readonly customer: { readonly id: number };
}
export interface MessageBody {
  readonly id: number;
  readonly body: string;
  readonly internal: boolean;
}

export const forbidden = 40301;
export const notFound = 40402;

export const expectForbidden = (a: Answer): void => {
  expectError(a, 403, forbidden);
};
export const expectNotFound = (a: Answer): void => {
  expectError(a, 404, notFound);
};

export interface RolesCast {
  api: Api;
  admin: string;
  alice: Caller;
  bob: Caller;
  agent: Caller;
  aliceTicket: TicketBody;
  bobTicket: TicketBody;
  publicReply: MessageBody;
  internalNote: MessageBody;
  group: { id: number };
  create: (token: string, body: Record<string, unknown>) => Promise<TicketBody>;
  addMessage: (token: string, ticketId: number, body: Record<string, unknown>) => Promise<MessageBody>;
  send: (method: string, path: string, token: string, body?: unknown) => Promise<Answer>;
}

export const rolesCast = async (): Promise<RolesCast> => {
  const api = await startApi();
  const create = async (token: string, body: Record<string, unknown>): Promise<TicketBody> => {
    const a = await api.post('/v1/tickets', body, { token });
    expect(a.status, a.text).to.equal(201);
    return a.json as TicketBody;
  };
  const addMessage = async (token: string, ticketId: number, body: Record<string, unknown>): Promise<MessageBody> => {
    const a = await api.post(`/v1/tickets/${ticketId}/messages`, body, { token });
    expect(a.status, a.text).to.equal(201);
    return a.json as MessageBody;
  };
  const send = (method: string, path: string, token: string, body?: unknown): Promise<Answer> =>
    api.request(method, path, body === undefined ? { token } : { token, body });
  const admin = await api.adminToken();
  const alice = await api.userWithToken('customer', 'Alice Customer');
  const bob = await api.userWithToken('customer', 'Bob Customer');
  const agent = await api.userWithToken('agent', 'Agnes Agent');
  const aliceTicket = await create(alice.token, { subject: 'Alice cannot print', summary: 'toner everywhere' });
  const bobTicket = await create(bob.token, { subject: 'Bob lost his password', summary: 'zebra' });
  const publicReply = await addMessage(agent.token, aliceTicket.id, { body: 'Have you tried turning it off?' });
  const internalNote = await addMessage(agent.token, aliceTicket.id, {
    body: 'Customer seems confused',
    internal: true,
  });
  const g = await api.post('/v1/groups', { name: 'Second line', description: 'Escalations' }, { token: admin });
  expect(g.status, g.text).to.equal(201);
  const group = g.json as { id: number };
  return {
    api,
    admin,
    alice,
    bob,
    agent,
    aliceTicket,
    bobTicket,
    publicReply,
    internalNote,
    group,
    create,
    addMessage,
    send,
  };
};

/** Registers the hooks that start and close the cast in the enclosing describe block; answers it, filled in by `before`. */
export const rolesSuite = (): RolesCast => {
  const r = {} as RolesCast;
  before(async () => {
    Object.assign(r, await rolesCast());
  });
  after(() => r.api.close());
  return r;
};
