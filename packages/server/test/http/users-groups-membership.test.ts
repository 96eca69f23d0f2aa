import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { arr, createTicket, fieldErrors, obj, patchJson, pathOf, type Json } from '../support/resources.js';
import type { Person } from '../support/casts.js';
import { usersCast, type UsersCast } from '../support/users-groups.js';

describe('HTTP: users and groups (representation, write-only password, unique e-mail, me, membership)', () => {
  let api: Api, admin: string, agent: Person;
  let createUser: UsersCast['createUser'], createGroup: UsersCast['createGroup'];
  suiteCast(async () => ({ api, admin, agent, createUser, createGroup } = await usersCast()));

  describe('groups and membership', () => {
    it('creates a group with an absolute users_url and refuses a duplicate name and read-only fields (422)', async () => {
      const g = await createGroup('Billing', 'Money matters');
      expect(Object.keys(g)).to.have.members([
        'id',
        'url',
        'name',
        'description',
        'users_url',
        'created_at',
        'updated_at',
      ]);
      expect(g).to.include({ name: 'Billing', description: 'Money matters' });
      expect(g.url).to.equal(`${api.origin}/v1/groups/${g.id as number}`);
      expect(g.users_url).to.equal(`${g.url as string}/users`);
      const dup = await api.post('/v1/groups', { name: 'Billing' }, { token: admin });
      expect(fieldErrors(dup).map((e) => [e.field, e.code])).to.deep.equal([['name', 42207]]);
      const ro = await api.post('/v1/groups', { name: 'Other', users_url: 'x', id: 3 }, { token: admin });
      expect(fieldErrors(ro).map((e) => [e.field, e.code])).to.deep.equal([
        ['id', 42203],
        ['users_url', 42203],
      ]);
    });

    it("links a user's groups and lists exactly the members at users_url, following membership changes", async () => {
      const sales = await createGroup('Sales');
      const support = await createGroup('Support');
      const ann = obj(
        await createUser({
          name: 'Ann',
          email: 'ann@example.com',
          password: 'password-1',
          role: 'agent',
          group_ids: [sales.id, support.id],
        }),
      );
      const bob = obj(
        await createUser({
          name: 'Bob',
          email: 'bob@example.com',
          password: 'password-1',
          role: 'agent',
          group_ids: [sales.id],
        }),
      );
      await createUser({ name: 'Cid', email: 'cid@example.com', password: 'password-1' });
      expect(ann.groups).to.deep.equal([
        { id: sales.id, url: sales.url },
        { id: support.id, url: support.url },
      ]);
      const members = async (g: Json): Promise<unknown[]> => {
        const a = await api.get(pathOf(g.users_url), { token: agent.token });
        expect(a.status, a.text).to.equal(200);
        expect(a.header('x-total-count')).to.equal(String(arr(a).length));
        return arr(a).map((u) => u.id);
      };
      expect(await members(sales)).to.have.members([ann.id, bob.id]);
      expect(await members(support)).to.deep.equal([ann.id]);

      const left = await patchJson(api, pathOf(ann.url), { group_ids: null }, admin);
      expect(obj(left).groups).to.deep.equal([]);
      expect(await members(sales)).to.deep.equal([bob.id]);
      expect(await members(support)).to.deep.equal([]);

      const unknown = await patchJson(api, pathOf(bob.url), { group_ids: [987654] }, admin);
      expect(fieldErrors(unknown).map((e) => [e.field, e.code])).to.deep.equal([['group_ids', 42209]]);
      expect((await api.get('/v1/groups/987654/users', { token: admin })).status).to.equal(404);
    });

    it('lets agents read groups, not write them; customers get 403', async () => {
      const g = await createGroup('Readable');
      const list = await api.get('/v1/groups', { token: agent.token });
      expect(list.status).to.equal(200);
      expect(arr(list).map((x) => x.name)).to.include('Readable');
      expect((await api.get(pathOf(g.url), { token: agent.token })).json).to.deep.equal(g);
      expect((await api.post('/v1/groups', { name: 'Agents group' }, { token: agent.token })).status).to.equal(403);
      expect((await patchJson(api, pathOf(g.url), { name: 'x' }, agent.token)).status).to.equal(403);
      const customer = await api.userWithToken('customer');
      expect((await api.get('/v1/groups', { token: customer.token })).status).to.equal(403);
      expect((await api.get(pathOf(g.users_url), { token: customer.token })).status).to.equal(403);
    });

    it('replaces with PUT (omitted description back to empty), patches, and deletes a group', async () => {
      const g = await createGroup('Mutable', 'desc');
      api.clock.advance(1000);
      const put = obj(await api.request('PUT', pathOf(g.url), { token: admin, body: { name: 'Mutable 2' } }));
      expect(put).to.include({ id: g.id, name: 'Mutable 2', description: '', created_at: g.created_at });
      expect(put.updated_at).not.to.equal(g.updated_at);
      const patched = obj(await patchJson(api, pathOf(g.url), { description: 'again' }, admin));
      expect(patched).to.include({ name: 'Mutable 2', description: 'again' });
      expect((await api.request('DELETE', pathOf(g.url), { token: admin })).status).to.equal(200);
      expect([404, 410]).to.include((await api.get(pathOf(g.url), { token: admin })).status);
      expect(arr(await api.get('/v1/groups?per_page=100', { token: admin })).map((x) => x.id)).not.to.include(g.id);
    });
  });

  describe('references that stop holding (tickets are assigned to agents or admins only)', () => {
    const assignedTo = async (userId: number): Promise<Json> => {
      const customer = await api.userWithToken('customer', 'Ref Customer');
      return createTicket(api, agent.token, { customer_id: customer.id, assigned_user_id: userId });
    };
    const assigneeOf = async (ticket: Json): Promise<unknown> =>
      obj(await api.get(pathOf(ticket.url), { token: admin })).assigned_user;

    it('unassigns the tickets of an agent made a customer (PATCH or a PUT without role), moving their updated_at', async () => {
      const patched = await api.userWithToken('agent', 'Demoted By Patch');
      const replaced = await api.userWithToken('agent', 'Demoted By Put');
      const kept = await api.userWithToken('agent', 'Promoted');
      const t1 = await assignedTo(patched.id);
      const t2 = await assignedTo(replaced.id);
      const t3 = await assignedTo(kept.id);
      api.clock.advance(1000);
      expect((await patchJson(api, `/v1/users/${patched.id}`, { role: 'customer' }, admin)).status).to.equal(200);
      const put = await api.request('PUT', `/v1/users/${replaced.id}`, {
        token: admin,
        body: { name: 'Demoted By Put', email: replaced.email },
      });
      expect(put.status, put.text).to.equal(200);
      expect(obj(put).role).to.equal('customer');
      expect((await patchJson(api, `/v1/users/${kept.id}`, { role: 'admin' }, admin)).status).to.equal(200);
      expect(await assigneeOf(t1)).to.equal(null);
      expect(await assigneeOf(t2)).to.equal(null);
      expect(await assigneeOf(t3)).to.deep.equal({ id: kept.id, url: `${api.origin}/v1/users/${kept.id}` });
      expect(obj(await api.get(pathOf(t1.url), { token: admin })).updated_at).not.to.equal(t1.updated_at);
    });

    it('unassigns the tickets of a deleted user and takes a deleted group off its tickets and members; If-Modified-Since sees it', async () => {
      const leaving = await api.userWithToken('agent', 'Leaving Agent');
      const ticket = await assignedTo(leaving.id);
      expect((await api.request('DELETE', `/v1/users/${leaving.id}`, { token: admin })).status).to.equal(200);
      expect(await assigneeOf(ticket)).to.equal(null);

      const g = await createGroup('Short Lived');
      const member = obj(
        await createUser({
          name: 'Member',
          email: 'member.shortlived@example.com',
          password: 'password-1',
          group_ids: [g.id],
        }),
      );
      const grouped = await createTicket(api, agent.token, {
        customer_id: member.id as number,
        group_id: g.id as number,
      });
      const cached = await api.get(pathOf(grouped.url), { token: admin });
      const since = { 'If-Modified-Since': cached.header('last-modified') ?? '' };
      expect((await api.get(pathOf(grouped.url), { token: admin, headers: since })).status).to.equal(304);
      const memberSince = {
        'If-Modified-Since': (await api.get(pathOf(member.url), { token: admin })).header('last-modified') ?? '',
      };
      expect((await api.get(pathOf(member.url), { token: admin, headers: memberSince })).status).to.equal(304);
      api.clock.advance(1000);
      expect((await api.request('DELETE', pathOf(g.url), { token: admin })).status).to.equal(200);
      const after = await api.get(pathOf(grouped.url), { token: admin, headers: since });
      expect(after.status, 'a cached copy with the deleted group is stale').to.equal(200);
      expect(obj(await api.get(pathOf(grouped.url), { token: admin })).group).to.equal(null);
      const memberAfter = await api.get(pathOf(member.url), { token: admin, headers: memberSince });
      expect(memberAfter.status, 'a cached member still in the deleted group is stale').to.equal(200);
      expect(obj(memberAfter).groups).to.deep.equal([]);
    });
  });
});
