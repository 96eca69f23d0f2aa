import { expect } from 'chai';
import { startApi, type Answer, type Api } from '../support/harness.js';
import { arr, createTicket, fieldErrors, isoMillis, obj, patchJson, pathOf, type Json } from '../support/resources.js';

describe('HTTP: users and groups (representation, write-only password, unique e-mail, me, membership)', () => {
  let api: Api;
  let admin: string;
  let agent: { id: number; token: string };

  before(async () => {
    api = await startApi();
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Agnes Agent');
  });
  after(async () => {
    await api.close();
  });

  const createUser = async (body: Json): Promise<Answer> => api.post('/v1/users', body, { token: admin });
  const createGroup = async (name: string, description?: string): Promise<Json> => {
    const a = await api.post('/v1/groups', description === undefined ? { name } : { name, description }, {
      token: admin,
    });
    expect(a.status, a.text).to.equal(201);
    return obj(a);
  };
  const noPassword = (a: Answer): void => {
    expect(a.text).not.to.match(/password/i);
    expect(a.text).not.to.include('s3cret-pass');
  };

  describe('users', () => {
    it('creates a user: 201, Location, snake_case representation, default role customer, password never returned', async () => {
      const a = await createUser({ name: 'Nora Newuser', email: 'nora@example.com', password: 's3cret-pass' });
      expect(a.status, a.text).to.equal(201);
      const u = obj(a);
      expect(Object.keys(u)).to.have.members([
        'id',
        'url',
        'name',
        'email',
        'role',
        'groups',
        'created_at',
        'updated_at',
      ]);
      expect(u).to.deep.include({ name: 'Nora Newuser', email: 'nora@example.com', role: 'customer', groups: [] });
      expect(u.url).to.equal(`${api.origin}/v1/users/${u.id as number}`);
      expect(a.header('location')).to.equal(u.url);
      expect(u.created_at).to.match(isoMillis);
      noPassword(a);
      const token = await api.login('nora@example.com', 's3cret-pass');
      const me = await api.get('/v1/users/me', { token });
      expect(me.status).to.equal(200);
      expect(me.json).to.deep.equal(u);
      noPassword(me);
      noPassword(await api.get(pathOf(u.url), { token: admin }));
      noPassword(await api.get('/v1/users?per_page=100', { token: admin }));
    });

    it('refuses server-set and unknown fields and bad values, every one at once', async () => {
      const a = await createUser({
        id: 1,
        url: 'x',
        created_at: 'x',
        groups: [],
        email: 'not-an-email',
        password: 'short',
        role: 'superuser',
        nickname: 'x',
      });
      expect(fieldErrors(a).map((e) => [e.field, e.code])).to.deep.equal([
        ['created_at', 42203],
        ['email', 42206],
        ['groups', 42203],
        ['id', 42203],
        ['name', 42201],
        ['nickname', 42202],
        ['password', 42205],
        ['role', 42206],
        ['url', 42203],
      ]);
    });

    it('keeps e-mail addresses unique regardless of case: 422 not_unique on create and on update', async () => {
      const first = await createUser({ name: 'Dup One', email: 'Dup.User@Example.com', password: 'password-1' });
      expect(first.status).to.equal(201);
      const again = await createUser({ name: 'Dup Two', email: 'dup.user@EXAMPLE.COM', password: 'password-2' });
      expect(fieldErrors(again).map((e) => [e.field, e.code])).to.deep.equal([['email', 42207]]);
      const second = await createUser({ name: 'Dup Three', email: 'someone.else@example.com', password: 'password-3' });
      expect(second.status).to.equal(201);
      const patched = await patchJson(api, pathOf(obj(second).url), { email: 'DUP.user@example.com' }, admin);
      expect(fieldErrors(patched).map((e) => [e.field, e.code])).to.deep.equal([['email', 42207]]);
      // The user can log in with any case of their address, and nobody else got it.
      const token = await api.login('dup.user@example.com', 'password-1');
      expect(obj(await api.get('/v1/users/me', { token })).id).to.equal(obj(first).id);
    });

    it('lets a customer read and change only themselves: name and password, not role; others are 404', async () => {
      const created = obj(
        await createUser({ name: 'Cora Customer', email: 'cora@example.com', password: 'old-password' }),
      );
      const other = obj(await createUser({ name: 'Someone', email: 'someone@example.com', password: 'password-x' }));
      const token = await api.login('cora@example.com', 'old-password');
      const ticket = await createTicket(api, token, { subject: 'Rename me' });
      expect((await api.get(pathOf(other.url), { token })).status).to.equal(404);
      expect((await api.get('/v1/users', { token })).status).to.equal(403);
      expect((await patchJson(api, '/v1/users/me', { role: 'admin' }, token)).status).to.equal(403);
      expect((await patchJson(api, pathOf(other.url), { name: 'hijack' }, token)).status).to.equal(404);
      const groups = await patchJson(api, '/v1/users/me', { group_ids: [999], role: 'agent' }, token);
      expect([groups.status, obj(groups).description], "the API's names").to.deep.equal([
        403,
        'customers may not write the fields role, group_ids',
      ]);

      api.clock.advance(1000);
      const renamed = await patchJson(api, '/v1/users/me', { name: 'Cora Renamed', password: 'new-password' }, token);
      expect(renamed.status, renamed.text).to.equal(200);
      expect(obj(renamed)).to.include({ id: created.id, name: 'Cora Renamed', role: 'customer' });
      expect(obj(renamed).updated_at).not.to.equal(created.updated_at);
      noPassword(renamed);
      // The flat customer_name follows the user's name, and so does the ticket's updated_at (its Last-Modified).
      const renamedTicket = obj(await api.get(pathOf(ticket.url), { token }));
      expect(renamedTicket.customer_name).to.equal('Cora Renamed');
      expect(renamedTicket.updated_at).to.equal(obj(renamed).updated_at);
      expect(arr(await api.get('/v1/tickets?q=renamed', { token: admin })).map((t) => t.id)).to.include(ticket.id);
      const relogin = await api.request('POST', '/v1/oauth/token', {
        body: { grant_type: 'password', username: 'cora@example.com', password: 'old-password' },
      });
      expect(relogin.status).to.not.equal(200);
      await api.login('cora@example.com', 'new-password');
    });

    it('lets agents read users but not create or change them (403); admins do everything', async () => {
      const list = await api.get('/v1/users', { token: agent.token });
      expect(list.status).to.equal(200);
      expect(list.header('x-total-count')).to.equal(String(arr(list).length));
      expect(arr(list).map((u) => u.email)).to.include('admin@example.com');
      const denied = await api.post(
        '/v1/users',
        { name: 'x', email: 'x@example.com', password: 'password-1' },
        { token: agent.token },
      );
      expect(denied.status).to.equal(403);
      const target = obj(await createUser({ name: 'Target', email: 'target@example.com', password: 'password-1' }));
      expect((await patchJson(api, pathOf(target.url), { name: 'nope' }, agent.token)).status).to.equal(403);
      const put = await api.request('PUT', pathOf(target.url), {
        token: admin,
        body: { name: 'Target Replaced', email: 'target@example.com', role: 'agent' },
      });
      expect(put.status, put.text).to.equal(200);
      expect(obj(put)).to.include({ name: 'Target Replaced', role: 'agent' });
      // PUT without a password keeps it.
      await api.login('target@example.com', 'password-1');
    });

    it('deletes a user (admin only): their tokens stop working and the user leaves the list', async () => {
      const gone = obj(await createUser({ name: 'Leaving', email: 'leaving@example.com', password: 'password-1' }));
      const token = await api.login('leaving@example.com', 'password-1');
      expect((await api.request('DELETE', pathOf(gone.url), { token: agent.token })).status).to.equal(403);
      expect((await api.request('DELETE', pathOf(gone.url), { token: admin })).status).to.equal(200);
      expect((await api.get('/v1/users/me', { token })).status).to.equal(401);
      expect([404, 410]).to.include((await api.get(pathOf(gone.url), { token: admin })).status);
      const all = arr(await api.get('/v1/users?per_page=100', { token: admin }));
      expect(all.map((u) => u.id)).not.to.include(gone.id);
    });
  });

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
