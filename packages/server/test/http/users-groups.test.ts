import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { arr, createTicket, fieldErrors, isoMillis, obj, patchJson, pathOf } from '../support/resources.js';
import type { Person } from '../support/casts.js';
import { noPassword, usersCast, type UsersCast } from '../support/users-groups.js';

describe('HTTP: users and groups (representation, write-only password, unique e-mail, me, membership)', () => {
  let api: Api, admin: string, agent: Person;
  let createUser: UsersCast['createUser'];
  suiteCast(async () => ({ api, admin, agent, createUser } = await usersCast()));

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
      const renamed = await patchJson(
        api,
        '/v1/users/me',
        { name: 'Cora Renamed', password: 'new-password', current_password: 'old-password' },
        token,
      );
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
});
