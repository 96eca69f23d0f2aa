import { expect } from 'chai';
import { expectError, expectUnauthorized, passwordGrant } from '../support/oauth.js';
import {
  expectForbidden,
  expectNotFound,
  rolesSuite,
  type MessageBody,
  type TicketBody,
} from '../support/roles-cast.js';

// The role matrix on the wire (roles.test.ts), for agents and admins.
describe('HTTP: roles (contract §3)', () => {
  const r = rolesSuite();

  describe('an agent', () => {
    it('sees every ticket, and every message including internal notes', async () => {
      const list = await r.send('GET', '/v1/tickets?per_page=100', r.agent.token);
      expect((list.json as TicketBody[]).map((t) => t.id)).to.include.members([r.aliceTicket.id, r.bobTicket.id]);
      expect((await r.send('GET', `/v1/tickets/${r.bobTicket.id}`, r.agent.token)).status).to.equal(200);
      const messages = await r.send('GET', `/v1/tickets/${r.aliceTicket.id}/messages`, r.agent.token);
      expect((messages.json as MessageBody[]).map((m) => m.id)).to.include.members([
        r.publicReply.id,
        r.internalNote.id,
      ]);
      const note = await r.send('GET', `/v1/tickets/${r.aliceTicket.id}/messages/${r.internalNote.id}`, r.agent.token);
      expect(note.status, note.text).to.equal(200);
      expect(note.json).to.include({ internal: true });
    });

    it('creates and updates tickets for customers, but may not delete them (403)', async () => {
      const t = await r.create(r.agent.token, { subject: 'Called in by Bob', customer_id: r.bob.id, priority: 'high' });
      expect(t.customer.id).to.equal(r.bob.id);
      const pending = await r.send('PATCH', `/v1/tickets/${t.id}`, r.agent.token, {
        state: 'pending',
        assigned_user_id: r.agent.id,
      });
      expect(pending.status, pending.text).to.equal(200);
      expectForbidden(await r.send('DELETE', `/v1/tickets/${t.id}`, r.agent.token));
      expect((await r.send('GET', `/v1/tickets/${t.id}`, r.bob.token)).status).to.equal(200);
    });

    it('may not manage groups (403 on the wire), yet 404 for ones that do not exist', async () => {
      expectForbidden(await r.send('PUT', `/v1/groups/${r.group.id}`, r.agent.token, { name: 'Renamed' }));
      expectForbidden(await r.send('DELETE', `/v1/groups/${r.group.id}`, r.agent.token));
      expectNotFound(await r.send('DELETE', '/v1/groups/999999', r.agent.token));
      const g = await r.send('GET', `/v1/groups/${r.group.id}`, r.agent.token);
      expect(g.json).to.include({ name: 'Second line' });
      const u = await r.send('GET', `/v1/users/${r.alice.id}`, r.agent.token);
      expect(u.json).to.include({ role: 'customer' });
    });
  });

  describe('an admin', () => {
    it('manages users: create, read, change, delete; a deleted user is logged out', async () => {
      const created = await r.send('POST', '/v1/users', r.admin, {
        name: 'Temp Agent',
        email: 'temp.agent@example.com',
        password: 'temp-password',
        role: 'agent',
        group_ids: [r.group.id],
      });
      expect(created.status, created.text).to.equal(201);
      const user = created.json as { id: number };
      const members = await r.send('GET', `/v1/groups/${r.group.id}/users`, r.admin);
      expect((members.json as { id: number }[]).map((m) => m.id)).to.include(user.id);
      const token = (await passwordGrant(r.api, 'temp.agent@example.com', 'temp-password')).access_token;
      const promoted = await r.send('PATCH', `/v1/users/${user.id}`, r.admin, { role: 'admin', name: 'Temp Admin' });
      expect(promoted.status, promoted.text).to.equal(200);
      expect(promoted.json).to.include({ role: 'admin', name: 'Temp Admin' });
      const deleted = await r.send('DELETE', `/v1/users/${user.id}`, r.admin);
      expect(deleted.status, deleted.text).to.equal(200);
      expectNotFound(await r.send('GET', `/v1/users/${user.id}`, r.admin));
      expectUnauthorized(await r.send('GET', '/v1/users/me', token));
    });

    it("ends a user's sessions when setting their password", async () => {
      const user = await r.api.userWithToken('agent');
      expect((await r.send('GET', '/v1/users/me', user.token)).status).to.equal(200);
      const reset = await r.send('PATCH', `/v1/users/${user.id}`, r.admin, { password: 'reset-by-admin' });
      expect(reset.status, reset.text).to.equal(200);
      expectUnauthorized(await r.send('GET', '/v1/users/me', user.token));
      expect((await passwordGrant(r.api, user.email, 'reset-by-admin')).token_type).to.equal('bearer');
    });

    it('manages groups: create, rename, delete', async () => {
      const created = await r.send('POST', '/v1/groups', r.admin, { name: 'Temporary' });
      expect(created.status, created.text).to.equal(201);
      const id = (created.json as { id: number }).id;
      const renamed = await r.send('PUT', `/v1/groups/${id}`, r.admin, { name: 'Temporary 2', description: 'renamed' });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.json).to.include({ name: 'Temporary 2', description: 'renamed' });
      expect((await r.send('DELETE', `/v1/groups/${id}`, r.admin)).status).to.equal(200);
      expectNotFound(await r.send('GET', `/v1/groups/${id}`, r.admin));
    });

    it('deletes tickets; afterwards they are gone (410) for everyone who could see them', async () => {
      const t = await r.create(r.alice.token, { subject: 'Delete me' });
      const deleted = await r.send('DELETE', `/v1/tickets/${t.id}`, r.admin);
      expect(deleted.status, deleted.text).to.equal(200);
      expectError(await r.send('GET', `/v1/tickets/${t.id}`, r.admin), 410, 41001);
      expectError(await r.send('GET', `/v1/tickets/${t.id}`, r.alice.token), 410, 41001);
      // Still invisible to anyone else: a deleted ticket of another customer is 404, not 410.
      expectNotFound(await r.send('GET', `/v1/tickets/${t.id}`, r.bob.token));
    });
  });
});
