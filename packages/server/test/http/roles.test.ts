import { expect } from 'chai';
import { startApi, type Answer, type Api } from '../support/harness.js';
import { expectError, expectUnauthorized, passwordGrant } from '../support/oauth.js';

// Contract §3, the role matrix: what customers, agents and admins may do with tickets,
// messages, users and groups. Another customer's ticket does not exist for a customer
// (404, never 403); a visible resource with a forbidden operation is 403.

interface Caller {
  readonly id: number;
  readonly email: string;
  readonly token: string;
}
interface TicketBody {
  readonly id: number;
  readonly subject: string;
  readonly state: string;
  readonly priority: string;
  readonly customer: { readonly id: number };
}
interface MessageBody {
  readonly id: number;
  readonly body: string;
  readonly internal: boolean;
}

const forbidden = 40301;
const notFound = 40402;

const expectForbidden = (a: Answer): void => {
  expectError(a, 403, forbidden);
};
const expectNotFound = (a: Answer): void => {
  expectError(a, 404, notFound);
};

// The whole role matrix is the table of application/test/roles.test.ts (use cases); these
// cases keep what only the wire shows: 404 never 403 across methods, bodies, sessions, embeds.
describe('HTTP: roles (contract §3)', () => {
  let api: Api;
  let admin: string;
  let alice: Caller;
  let bob: Caller;
  let agent: Caller;
  let aliceTicket: TicketBody;
  let bobTicket: TicketBody;
  let publicReply: MessageBody;
  let internalNote: MessageBody;
  let group: { id: number };

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

  before(async () => {
    api = await startApi();
    admin = await api.adminToken();
    alice = await api.userWithToken('customer', 'Alice Customer');
    bob = await api.userWithToken('customer', 'Bob Customer');
    agent = await api.userWithToken('agent', 'Agnes Agent');
    aliceTicket = await create(alice.token, { subject: 'Alice cannot print', summary: 'toner everywhere' });
    bobTicket = await create(bob.token, { subject: 'Bob lost his password', summary: 'zebra' });
    publicReply = await addMessage(agent.token, aliceTicket.id, { body: 'Have you tried turning it off?' });
    internalNote = await addMessage(agent.token, aliceTicket.id, { body: 'Customer seems confused', internal: true });
    const g = await api.post('/v1/groups', { name: 'Second line', description: 'Escalations' }, { token: admin });
    expect(g.status, g.text).to.equal(201);
    group = g.json as { id: number };
  });
  after(async () => {
    await api.close();
  });

  describe('a customer', () => {
    it('is the customer of the tickets they create', () => {
      expect(aliceTicket.customer.id).to.equal(alice.id);
      expect(bobTicket.customer.id).to.equal(bob.id);
    });

    it("sees another customer's ticket as 404, never 403, whatever the method", async () => {
      const path = `/v1/tickets/${bobTicket.id}`;
      expectNotFound(await send('GET', path, alice.token));
      expectNotFound(await send('GET', `/v1/ticket/${bobTicket.id}`, alice.token));
      expectNotFound(await send('PATCH', path, alice.token, { subject: 'mine now' }));
      expectNotFound(await send('PUT', path, alice.token, { subject: 'mine now' }));
      expectNotFound(await send('DELETE', path, alice.token));
      expectNotFound(await send('GET', `${path}/messages`, alice.token));
      expectNotFound(await send('POST', `${path}/messages`, alice.token, { body: 'hello?' }));
      // The same answer as for a ticket that does not exist at all: nothing leaks.
      const other = await send('GET', path, alice.token);
      const none = await send('GET', '/v1/tickets/999999', alice.token);
      expect(other.status).to.equal(none.status);
      expect((other.json as { code: number }).code).to.equal((none.json as { code: number }).code);
      // Bob's ticket is untouched and still his.
      const still = await send('GET', path, bob.token);
      expect(still.status).to.equal(200);
      expect(still.json).to.include({ subject: 'Bob lost his password' });
    });

    it('lists and finds only their own tickets', async () => {
      const list = await send('GET', '/v1/tickets?per_page=100', alice.token);
      expect(list.status, list.text).to.equal(200);
      const items = list.json as TicketBody[];
      expect(items.map((t) => t.id))
        .to.include(aliceTicket.id)
        .and.not.include(bobTicket.id);
      for (const t of items) expect(t.customer.id).to.equal(alice.id);
      expect(list.header('x-total-count')).to.equal(String(items.length));
      // A word only Bob's ticket holds finds nothing for Alice, and his for him.
      const search = await send('GET', '/v1/tickets?q=zebra', alice.token);
      expect(search.json).to.deep.equal([]);
      expect(search.header('x-total-count')).to.equal('0');
      const his = await send('GET', '/v1/tickets?q=zebra', bob.token);
      expect((his.json as TicketBody[]).map((t) => t.id)).to.deep.equal([bobTicket.id]);
    });

    it('never sees internal notes: not in the list, 404 on their own ticket', async () => {
      const list = await send('GET', `/v1/tickets/${aliceTicket.id}/messages`, alice.token);
      expect(list.status, list.text).to.equal(200);
      const messages = list.json as MessageBody[];
      expect(messages.map((m) => m.id)).to.deep.equal([publicReply.id]);
      expect(messages.every((m) => !m.internal)).to.equal(true);
      expect(list.header('x-total-count')).to.equal('1');
      expect(list.text).to.not.include('Customer seems confused');
      const path = `/v1/tickets/${aliceTicket.id}/messages/${internalNote.id}`;
      expectNotFound(await send('GET', path, alice.token));
      expectNotFound(await send('PATCH', path, alice.token, { body: 'edited' }));
      expectNotFound(await send('DELETE', path, alice.token));
      expect(
        (await send('GET', `/v1/tickets/${aliceTicket.id}/messages/${publicReply.id}`, alice.token)).status,
      ).to.equal(200);
    });

    it('adds messages to their own ticket, but not internal notes (403)', async () => {
      const m = await addMessage(alice.token, aliceTicket.id, { body: 'It is off now.' });
      expect(m.internal).to.equal(false);
      expectForbidden(
        await send('POST', `/v1/tickets/${aliceTicket.id}/messages`, alice.token, { body: 'psst', internal: true }),
      );
      // Their own message: editable, and cannot be turned into a note.
      const path = `/v1/tickets/${aliceTicket.id}/messages/${m.id}`;
      const edited = await send('PATCH', path, alice.token, { body: 'It is off now, still broken.' });
      expect(edited.status, edited.text).to.equal(200);
      expectForbidden(await send('PATCH', path, alice.token, { internal: true }));
    });

    it("may not edit or delete someone else's message on their ticket (403)", async () => {
      const path = `/v1/tickets/${aliceTicket.id}/messages/${publicReply.id}`;
      expectForbidden(await send('PATCH', path, alice.token, { body: 'The agent said nothing' }));
      expectForbidden(await send('DELETE', path, alice.token));
    });

    it('updates subject and summary, closes and reopens, but nothing else (403)', async () => {
      const path = `/v1/tickets/${aliceTicket.id}`;
      const renamed = await send('PATCH', path, alice.token, { subject: 'Alice still cannot print', summary: 'worse' });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.json).to.include({ subject: 'Alice still cannot print', summary: 'worse' });
      const closed = await send('PATCH', path, alice.token, { state: 'closed' });
      expect(closed.status, closed.text).to.equal(200);
      expect(closed.json).to.include({ state: 'closed' });
      const reopened = await send('PATCH', path, alice.token, { state: 'open' });
      expect(reopened.status, reopened.text).to.equal(200);
      expect(reopened.json).to.include({ state: 'open' });

      expectForbidden(await send('PATCH', path, alice.token, { state: 'pending' }));
      expectForbidden(await send('PATCH', path, alice.token, { priority: 'urgent' }));
      expectForbidden(await send('PATCH', path, alice.token, { assigned_user_id: agent.id }));
      expectForbidden(await send('PATCH', path, alice.token, { customer_id: bob.id }));
      expectForbidden(await send('DELETE', path, alice.token));
      const after = await send('GET', path, alice.token);
      expect(after.json).to.include({ state: 'open', priority: 'normal' });
    });

    it('may not create a ticket for someone else or with staff fields (403)', async () => {
      expectForbidden(await send('POST', '/v1/tickets', alice.token, { subject: 'For Bob', customer_id: bob.id }));
      expectForbidden(await send('POST', '/v1/tickets', alice.token, { subject: 'Urgent!', priority: 'urgent' }));
    });

    it('reads themselves at /v1/users/me and by id; other users do not exist for them', async () => {
      const me = await send('GET', '/v1/users/me', alice.token);
      expect(me.status, me.text).to.equal(200);
      const body = me.json as Record<string, unknown>;
      expect(body).to.include({ id: alice.id, email: alice.email, role: 'customer', name: 'Alice Customer' });
      expect(body).to.not.have.any.keys('password', 'password_hash', 'passwordHash');
      const byId = await send('GET', `/v1/users/${alice.id}`, alice.token);
      expect(byId.json).to.deep.equal(me.json);
      expectNotFound(await send('GET', `/v1/users/${bob.id}`, alice.token));
      expectNotFound(await send('GET', `/v1/users/${agent.id}`, alice.token));
      expectNotFound(await send('PATCH', `/v1/users/${bob.id}`, alice.token, { name: 'Bobby' }));
      expectForbidden(await send('GET', '/v1/users', alice.token));
    });

    it("does not learn an agent's e-mail by embedding the assignee", async () => {
      const t = await send('PATCH', `/v1/tickets/${aliceTicket.id}`, admin, { assigned_user_id: agent.id });
      expect(t.status, t.text).to.equal(200);
      const a = await send('GET', `/v1/tickets/${aliceTicket.id}?embed=assigned_user`, alice.token);
      expect(a.status, a.text).to.equal(200);
      expect(a.text).to.not.include(agent.email);
      expect((a.json as { assigned_user: { id: number } }).assigned_user.id).to.equal(agent.id);
    });

    it('changes their own name and password, not their role or e-mail (403)', async () => {
      const renamed = await send('PATCH', '/v1/users/me', alice.token, { name: 'Alice C.' });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.json).to.include({ name: 'Alice C.' });
      expectForbidden(await send('PATCH', '/v1/users/me', alice.token, { role: 'admin' }));
      expectForbidden(await send('PATCH', `/v1/users/${alice.id}`, alice.token, { email: 'alice.new@example.com' }));
      const me = await send('GET', '/v1/users/me', alice.token);
      expect(me.json).to.include({ role: 'customer', email: alice.email });

      const pw = await send('PATCH', '/v1/users/me', alice.token, { password: 'a-new-password-1' });
      expect(pw.status, pw.text).to.equal(200);
      const g = await passwordGrant(api, alice.email, 'a-new-password-1');
      expect((await send('GET', '/v1/users/me', g.access_token)).status).to.equal(200);
    });
  });

  describe('an agent', () => {
    it('sees every ticket, and every message including internal notes', async () => {
      const list = await send('GET', '/v1/tickets?per_page=100', agent.token);
      expect((list.json as TicketBody[]).map((t) => t.id)).to.include.members([aliceTicket.id, bobTicket.id]);
      expect((await send('GET', `/v1/tickets/${bobTicket.id}`, agent.token)).status).to.equal(200);
      const messages = await send('GET', `/v1/tickets/${aliceTicket.id}/messages`, agent.token);
      expect((messages.json as MessageBody[]).map((m) => m.id)).to.include.members([publicReply.id, internalNote.id]);
      const note = await send('GET', `/v1/tickets/${aliceTicket.id}/messages/${internalNote.id}`, agent.token);
      expect(note.status, note.text).to.equal(200);
      expect(note.json).to.include({ internal: true });
    });

    it('creates and updates tickets for customers, but may not delete them (403)', async () => {
      const t = await create(agent.token, { subject: 'Called in by Bob', customer_id: bob.id, priority: 'high' });
      expect(t.customer.id).to.equal(bob.id);
      const pending = await send('PATCH', `/v1/tickets/${t.id}`, agent.token, {
        state: 'pending',
        assigned_user_id: agent.id,
      });
      expect(pending.status, pending.text).to.equal(200);
      expectForbidden(await send('DELETE', `/v1/tickets/${t.id}`, agent.token));
      expect((await send('GET', `/v1/tickets/${t.id}`, bob.token)).status).to.equal(200);
    });

    it('may not manage groups (403 on the wire), yet 404 for ones that do not exist', async () => {
      expectForbidden(await send('PUT', `/v1/groups/${group.id}`, agent.token, { name: 'Renamed' }));
      expectForbidden(await send('DELETE', `/v1/groups/${group.id}`, agent.token));
      expectNotFound(await send('DELETE', '/v1/groups/999999', agent.token));
      const g = await send('GET', `/v1/groups/${group.id}`, agent.token);
      expect(g.json).to.include({ name: 'Second line' });
      const u = await send('GET', `/v1/users/${alice.id}`, agent.token);
      expect(u.json).to.include({ role: 'customer' });
    });
  });

  describe('an admin', () => {
    it('manages users: create, read, change, delete; a deleted user is logged out', async () => {
      const created = await send('POST', '/v1/users', admin, {
        name: 'Temp Agent',
        email: 'temp.agent@example.com',
        password: 'temp-password',
        role: 'agent',
        group_ids: [group.id],
      });
      expect(created.status, created.text).to.equal(201);
      const user = created.json as { id: number };
      const members = await send('GET', `/v1/groups/${group.id}/users`, admin);
      expect((members.json as { id: number }[]).map((m) => m.id)).to.include(user.id);
      const token = (await passwordGrant(api, 'temp.agent@example.com', 'temp-password')).access_token;
      const promoted = await send('PATCH', `/v1/users/${user.id}`, admin, { role: 'admin', name: 'Temp Admin' });
      expect(promoted.status, promoted.text).to.equal(200);
      expect(promoted.json).to.include({ role: 'admin', name: 'Temp Admin' });
      const deleted = await send('DELETE', `/v1/users/${user.id}`, admin);
      expect(deleted.status, deleted.text).to.equal(200);
      expectNotFound(await send('GET', `/v1/users/${user.id}`, admin));
      expectUnauthorized(await send('GET', '/v1/users/me', token));
    });

    it("ends a user's sessions when setting their password", async () => {
      const user = await api.userWithToken('agent');
      expect((await send('GET', '/v1/users/me', user.token)).status).to.equal(200);
      const reset = await send('PATCH', `/v1/users/${user.id}`, admin, { password: 'reset-by-admin' });
      expect(reset.status, reset.text).to.equal(200);
      expectUnauthorized(await send('GET', '/v1/users/me', user.token));
      expect((await passwordGrant(api, user.email, 'reset-by-admin')).token_type).to.equal('bearer');
    });

    it('manages groups: create, rename, delete', async () => {
      const created = await send('POST', '/v1/groups', admin, { name: 'Temporary' });
      expect(created.status, created.text).to.equal(201);
      const id = (created.json as { id: number }).id;
      const renamed = await send('PUT', `/v1/groups/${id}`, admin, { name: 'Temporary 2', description: 'renamed' });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.json).to.include({ name: 'Temporary 2', description: 'renamed' });
      expect((await send('DELETE', `/v1/groups/${id}`, admin)).status).to.equal(200);
      expectNotFound(await send('GET', `/v1/groups/${id}`, admin));
    });

    it('deletes tickets; afterwards they are gone (410) for everyone who could see them', async () => {
      const t = await create(alice.token, { subject: 'Delete me' });
      const deleted = await send('DELETE', `/v1/tickets/${t.id}`, admin);
      expect(deleted.status, deleted.text).to.equal(200);
      expectError(await send('GET', `/v1/tickets/${t.id}`, admin), 410, 41001);
      expectError(await send('GET', `/v1/tickets/${t.id}`, alice.token), 410, 41001);
      // Still invisible to anyone else: a deleted ticket of another customer is 404, not 410.
      expectNotFound(await send('GET', `/v1/tickets/${t.id}`, bob.token));
    });
  });
});
