import { expect } from 'chai';
import { passwordGrant } from '../support/oauth.js';
import {
  expectForbidden,
  expectNotFound,
  rolesSuite,
  type MessageBody,
  type TicketBody,
} from '../support/roles-cast.js';

// Contract §3, the role matrix: what customers, agents and admins may do with tickets,
// messages, users and groups. Another customer's ticket does not exist for a customer
// (404, never 403); a visible resource with a forbidden operation is 403.

// The whole role matrix is the table of application/test/roles.test.ts (use cases); these
// cases keep what only the wire shows: 404 never 403 across methods, bodies, sessions, embeds.
describe('HTTP: roles (contract §3)', () => {
  const r = rolesSuite();

  describe('a customer', () => {
    it('is the customer of the tickets they create', () => {
      expect(r.aliceTicket.customer.id).to.equal(r.alice.id);
      expect(r.bobTicket.customer.id).to.equal(r.bob.id);
    });

    it("sees another customer's ticket as 404, never 403, whatever the method", async () => {
      const path = `/v1/tickets/${r.bobTicket.id}`;
      expectNotFound(await r.send('GET', path, r.alice.token));
      expectNotFound(await r.send('GET', `/v1/ticket/${r.bobTicket.id}`, r.alice.token));
      expectNotFound(await r.send('PATCH', path, r.alice.token, { subject: 'mine now' }));
      expectNotFound(await r.send('PUT', path, r.alice.token, { subject: 'mine now' }));
      expectNotFound(await r.send('DELETE', path, r.alice.token));
      expectNotFound(await r.send('GET', `${path}/messages`, r.alice.token));
      expectNotFound(await r.send('POST', `${path}/messages`, r.alice.token, { body: 'hello?' }));
      // The same answer as for a ticket that does not exist at all: nothing leaks.
      const other = await r.send('GET', path, r.alice.token);
      const none = await r.send('GET', '/v1/tickets/999999', r.alice.token);
      expect(other.status).to.equal(none.status);
      expect((other.json as { code: number }).code).to.equal((none.json as { code: number }).code);
      // Bob's ticket is untouched and still his.
      const still = await r.send('GET', path, r.bob.token);
      expect(still.status).to.equal(200);
      expect(still.json).to.include({ subject: 'Bob lost his password' });
    });

    it('lists and finds only their own tickets', async () => {
      const list = await r.send('GET', '/v1/tickets?per_page=100', r.alice.token);
      expect(list.status, list.text).to.equal(200);
      const items = list.json as TicketBody[];
      expect(items.map((t) => t.id))
        .to.include(r.aliceTicket.id)
        .and.not.include(r.bobTicket.id);
      for (const t of items) expect(t.customer.id).to.equal(r.alice.id);
      expect(list.header('x-total-count')).to.equal(String(items.length));
      // A word only Bob's ticket holds finds nothing for Alice, and his for him.
      const search = await r.send('GET', '/v1/tickets?q=zebra', r.alice.token);
      expect(search.json).to.deep.equal([]);
      expect(search.header('x-total-count')).to.equal('0');
      const his = await r.send('GET', '/v1/tickets?q=zebra', r.bob.token);
      expect((his.json as TicketBody[]).map((t) => t.id)).to.deep.equal([r.bobTicket.id]);
    });

    it('never sees internal notes: not in the list, 404 on their own ticket', async () => {
      const list = await r.send('GET', `/v1/tickets/${r.aliceTicket.id}/messages`, r.alice.token);
      expect(list.status, list.text).to.equal(200);
      const messages = list.json as MessageBody[];
      expect(messages.map((m) => m.id)).to.deep.equal([r.publicReply.id]);
      expect(messages.every((m) => !m.internal)).to.equal(true);
      expect(list.header('x-total-count')).to.equal('1');
      expect(list.text).to.not.include('Customer seems confused');
      const path = `/v1/tickets/${r.aliceTicket.id}/messages/${r.internalNote.id}`;
      expectNotFound(await r.send('GET', path, r.alice.token));
      expectNotFound(await r.send('PATCH', path, r.alice.token, { body: 'edited' }));
      expectNotFound(await r.send('DELETE', path, r.alice.token));
      expect(
        (await r.send('GET', `/v1/tickets/${r.aliceTicket.id}/messages/${r.publicReply.id}`, r.alice.token)).status,
      ).to.equal(200);
    });

    it('adds messages to their own ticket, but not internal notes (403)', async () => {
      const m = await r.addMessage(r.alice.token, r.aliceTicket.id, { body: 'It is off now.' });
      expect(m.internal).to.equal(false);
      expectForbidden(
        await r.send('POST', `/v1/tickets/${r.aliceTicket.id}/messages`, r.alice.token, {
          body: 'psst',
          internal: true,
        }),
      );
      // Their own message: editable, and cannot be turned into a note.
      const path = `/v1/tickets/${r.aliceTicket.id}/messages/${m.id}`;
      const edited = await r.send('PATCH', path, r.alice.token, { body: 'It is off now, still broken.' });
      expect(edited.status, edited.text).to.equal(200);
      expectForbidden(await r.send('PATCH', path, r.alice.token, { internal: true }));
    });

    it("may not edit or delete someone else's message on their ticket (403)", async () => {
      const path = `/v1/tickets/${r.aliceTicket.id}/messages/${r.publicReply.id}`;
      expectForbidden(await r.send('PATCH', path, r.alice.token, { body: 'The agent said nothing' }));
      expectForbidden(await r.send('DELETE', path, r.alice.token));
    });

    it('updates subject and summary, closes and reopens, but nothing else (403)', async () => {
      const path = `/v1/tickets/${r.aliceTicket.id}`;
      const renamed = await r.send('PATCH', path, r.alice.token, {
        subject: 'Alice still cannot print',
        summary: 'worse',
      });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.json).to.include({ subject: 'Alice still cannot print', summary: 'worse' });
      const closed = await r.send('PATCH', path, r.alice.token, { state: 'closed' });
      expect(closed.status, closed.text).to.equal(200);
      expect(closed.json).to.include({ state: 'closed' });
      const reopened = await r.send('PATCH', path, r.alice.token, { state: 'open' });
      expect(reopened.status, reopened.text).to.equal(200);
      expect(reopened.json).to.include({ state: 'open' });

      expectForbidden(await r.send('PATCH', path, r.alice.token, { state: 'pending' }));
      expectForbidden(await r.send('PATCH', path, r.alice.token, { priority: 'urgent' }));
      expectForbidden(await r.send('PATCH', path, r.alice.token, { assigned_user_id: r.agent.id }));
      expectForbidden(await r.send('PATCH', path, r.alice.token, { customer_id: r.bob.id }));
      expectForbidden(await r.send('DELETE', path, r.alice.token));
      const after = await r.send('GET', path, r.alice.token);
      expect(after.json).to.include({ state: 'open', priority: 'normal' });
    });

    it('may not create a ticket for someone else or with staff fields (403)', async () => {
      expectForbidden(
        await r.send('POST', '/v1/tickets', r.alice.token, { subject: 'For Bob', customer_id: r.bob.id }),
      );
      expectForbidden(await r.send('POST', '/v1/tickets', r.alice.token, { subject: 'Urgent!', priority: 'urgent' }));
    });

    it('reads themselves at /v1/users/me and by id; other users do not exist for them', async () => {
      const me = await r.send('GET', '/v1/users/me', r.alice.token);
      expect(me.status, me.text).to.equal(200);
      const body = me.json as Record<string, unknown>;
      expect(body).to.include({ id: r.alice.id, email: r.alice.email, role: 'customer', name: 'Alice Customer' });
      expect(body).to.not.have.any.keys('password', 'password_hash', 'passwordHash');
      const byId = await r.send('GET', `/v1/users/${r.alice.id}`, r.alice.token);
      expect(byId.json).to.deep.equal(me.json);
      expectNotFound(await r.send('GET', `/v1/users/${r.bob.id}`, r.alice.token));
      expectNotFound(await r.send('GET', `/v1/users/${r.agent.id}`, r.alice.token));
      expectNotFound(await r.send('PATCH', `/v1/users/${r.bob.id}`, r.alice.token, { name: 'Bobby' }));
      expectForbidden(await r.send('GET', '/v1/users', r.alice.token));
    });

    it("does not learn an agent's e-mail by embedding the assignee", async () => {
      const t = await r.send('PATCH', `/v1/tickets/${r.aliceTicket.id}`, r.admin, { assigned_user_id: r.agent.id });
      expect(t.status, t.text).to.equal(200);
      const a = await r.send('GET', `/v1/tickets/${r.aliceTicket.id}?embed=assigned_user`, r.alice.token);
      expect(a.status, a.text).to.equal(200);
      expect(a.text).to.not.include(r.agent.email);
      expect((a.json as { assigned_user: { id: number } }).assigned_user.id).to.equal(r.agent.id);
    });

    it('changes their own name and password, not their role or e-mail (403)', async () => {
      const renamed = await r.send('PATCH', '/v1/users/me', r.alice.token, { name: 'Alice C.' });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.json).to.include({ name: 'Alice C.' });
      expectForbidden(await r.send('PATCH', '/v1/users/me', r.alice.token, { role: 'admin' }));
      expectForbidden(
        await r.send('PATCH', `/v1/users/${r.alice.id}`, r.alice.token, { email: 'alice.new@example.com' }),
      );
      const me = await r.send('GET', '/v1/users/me', r.alice.token);
      expect(me.json).to.include({ role: 'customer', email: r.alice.email });

      const pw = await r.send('PATCH', '/v1/users/me', r.alice.token, {
        password: 'a-new-password-1',
        current_password: r.alice.password,
      });
      expect(pw.status, pw.text).to.equal(200);
      const g = await passwordGrant(r.api, r.alice.email, 'a-new-password-1');
      expect((await r.send('GET', '/v1/users/me', g.access_token)).status).to.equal(200);
    });
  });
});
