import { expect } from 'chai';
import { startApi, type Api } from '../support/harness.js';
import { arr, createTicket, fieldErrors, isoMillis, obj, patchJson, pathOf, type Json } from '../support/resources.js';

const day = 24 * 3600 * 1000;

describe('HTTP: tickets (representation, create, read, PUT, PATCH, DELETE, states, embed, fields)', () => {
  let api: Api;
  let admin: string;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };
  let other: { id: number; token: string };

  before(async () => {
    // Tokens outlive the weeks the clock is moved forward.
    api = await startApi({ TOKEN_TTL_S: String(365 * 24 * 3600) });
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Grace Hopper');
    customer = await api.userWithToken('customer', 'Ada Lovelace');
    other = await api.userWithToken('customer', 'Charles Babbage');
  });
  after(async () => {
    await api.close();
  });

  describe('representation', () => {
    it('answers 201 with the full ticket, absolute links and a Location header holding its url', async () => {
      const now = api.clock.now();
      const a = await api.post(
        '/v1/tickets',
        { subject: 'Printer on fire', summary: 'Smoke', customer_id: customer.id },
        { token: agent.token },
      );
      expect(a.status, a.text).to.equal(201);
      const t = obj(a);
      expect(Object.keys(t)).to.have.members([
        'id',
        'url',
        'subject',
        'summary',
        'state',
        'priority',
        'customer',
        'customer_name',
        'assigned_user',
        'group',
        'tags',
        'created_at',
        'updated_at',
        'closed_at',
        'messages_url',
        'allowed_transitions',
      ]);
      for (const k of Object.keys(t)) expect(k).to.match(/^[a-z]+(_[a-z]+)*$/);
      expect(t.id).to.be.a('number');
      expect(t.url).to.equal(`${api.origin}/v1/tickets/${t.id as number}`);
      expect(a.header('location')).to.equal(t.url);
      expect(t).to.deep.include({
        subject: 'Printer on fire',
        summary: 'Smoke',
        state: 'open',
        priority: 'normal',
        customer: { id: customer.id, url: `${api.origin}/v1/users/${customer.id}` },
        customer_name: 'Ada Lovelace',
        assigned_user: null,
        group: null,
        tags: [],
        closed_at: null,
        messages_url: `${api.origin}/v1/tickets/${t.id as number}/messages`,
        allowed_transitions: ['pending', 'closed'],
      });
      expect(t.created_at).to.match(isoMillis).and.equal(new Date(now).toISOString());
      expect(t.updated_at).to.equal(t.created_at);
    });

    it('makes a customer the customer of the ticket they create', async () => {
      const t = await createTicket(api, customer.token, { subject: 'Mine', summary: 'x' });
      expect(t.customer).to.deep.equal({ id: customer.id, url: `${api.origin}/v1/users/${customer.id}` });
      expect(t.customer_name).to.equal('Ada Lovelace');
    });

    it('reads back exactly what the create answered, also through the deprecated singular alias', async () => {
      const t = await createTicket(api, agent.token, {
        subject: 'Read me',
        customer_id: customer.id,
        tags: ['a', 'b'],
        priority: 'high',
      });
      const read = await api.get(pathOf(t.url), { token: agent.token });
      expect(read.status).to.equal(200);
      expect(read.json).to.deep.equal(t);
      const alias = await api.get(`/v1/ticket/${t.id as number}`, { token: agent.token });
      expect(alias.status).to.equal(200);
      expect(alias.json).to.deep.equal(t);
      // The customer sees the same ticket but where they may move it: close it only.
      expect(obj(await api.get(pathOf(t.url), { token: customer.token }))).to.deep.equal({
        ...t,
        allowed_transitions: ['closed'],
      });
      expect(alias.header('deprecation')).to.be.a('string');
      expect(alias.header('sunset')).to.be.a('string');
      expect(alias.header('link')).to.match(/rel="deprecation"/);
    });

    it("answers 404 for an unknown id or a non-numeric segment, and hides another customer's ticket as 404", async () => {
      expect((await api.get('/v1/tickets/999999', { token: admin })).status).to.equal(404);
      expect((await api.get('/v1/tickets/abc', { token: admin })).status).to.equal(404);
      expect((await api.get('/v1/tickets/007', { token: admin })).status).to.equal(404);
      const t = await createTicket(api, customer.token, { subject: 'Private' });
      const peek = await api.get(pathOf(t.url), { token: other.token });
      expect(peek.status).to.equal(404);
      expect(obj(peek)).to.include.keys('code', 'message', 'description');
      const write = await patchJson(api, pathOf(t.url), { subject: 'mine now' }, other.token);
      expect(write.status).to.equal(404);
    });
  });

  describe('validation on create', () => {
    it('refuses every server-set field of the body, one error per field, with the read-only code', async () => {
      const a = await api.post(
        '/v1/tickets',
        {
          subject: 'ok',
          customer_id: customer.id,
          id: 5,
          url: 'https://x',
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
          closed_at: null,
          customer_name: 'Eve',
          messages_url: 'https://x',
          state: 'closed',
        },
        { token: agent.token },
      );
      const errors = fieldErrors(a);
      expect(errors.map((e) => e.field)).to.have.members([
        'closed_at',
        'created_at',
        'customer_name',
        'id',
        'messages_url',
        'state',
        'updated_at',
        'url',
      ]);
      for (const e of errors) {
        expect(e.code).to.equal(42203);
        expect(e.message).to.be.a('string').and.not.equal('');
      }
    });

    it('reports every bad field at once with its own code', async () => {
      const a = await api.post(
        '/v1/tickets',
        { subject: '', priority: 'extreme', tags: 'not-a-list', summary: 'x'.repeat(10001), colour: 'blue' },
        { token: agent.token },
      );
      const byField = Object.fromEntries(fieldErrors(a).map((e) => [e.field, e.code]));
      expect(byField).to.deep.equal({
        colour: 42202,
        customer_id: 42201,
        priority: 42206,
        subject: 42205,
        summary: 42205,
        tags: 42204,
      });
    });

    it('answers a body that is not a JSON object with that one error, nothing about its fields', async () => {
      for (const body of ['null', '[]', '[{"subject":"x"}]', '"text"', '42']) {
        const a = await api.request('POST', '/v1/tickets', {
          token: agent.token,
          body,
          headers: { 'Content-Type': 'application/json' },
        });
        expect(a.status, body).to.equal(422);
        expect(
          fieldErrors(a).map((e) => [e.field, e.code]),
          body,
        ).to.deep.equal([['', 42204]]);
      }
    });

    it('checks references: an unknown customer, a customer as assignee, an unknown group', async () => {
      const a = await api.post(
        '/v1/tickets',
        { subject: 'refs', customer_id: 987654, assigned_user_id: other.id, group_id: 987654 },
        { token: agent.token },
      );
      expect(fieldErrors(a).map((e) => e.field)).to.have.members(['assigned_user_id', 'customer_id', 'group_id']);
    });

    it('answers 415 for a body without the JSON media type and 400 for malformed JSON', async () => {
      const form = await api.request('POST', '/v1/tickets', {
        token: agent.token,
        body: 'subject=x',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).to.equal(415);
      expect(obj(form).code).to.equal(41501);
      const broken = await api.request('POST', '/v1/tickets', {
        token: agent.token,
        body: '{"subject": ',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(broken.status).to.equal(400);
      expect(obj(broken).code).to.equal(40002);
    });
  });

  describe('PUT and PATCH', () => {
    it('PUT replaces every writable field: omitted optional ones return to their defaults, the customer stays', async () => {
      const t = await createTicket(api, agent.token, {
        subject: 'Full',
        summary: 'long text',
        priority: 'urgent',
        tags: ['x'],
        customer_id: customer.id,
        assigned_user_id: agent.id,
      });
      api.clock.advance(1000);
      const a = await api.request('PUT', pathOf(t.url), { token: agent.token, body: { subject: 'Replaced' } });
      expect(a.status, a.text).to.equal(200);
      const r = obj(a);
      expect(r).to.deep.include({
        id: t.id,
        subject: 'Replaced',
        summary: '',
        priority: 'normal',
        tags: [],
        assigned_user: null,
        state: 'open',
        customer: t.customer,
        customer_name: 'Ada Lovelace',
        created_at: t.created_at,
      });
      expect(Date.parse(r.updated_at as string) - Date.parse(t.updated_at as string)).to.equal(1000);
      expect((await api.get(pathOf(t.url), { token: agent.token })).json).to.deep.equal(r);
    });

    it('PUT without the required subject is 422 naming it', async () => {
      const t = await createTicket(api, agent.token, { subject: 'Keep', customer_id: customer.id });
      const a = await api.request('PUT', pathOf(t.url), { token: agent.token, body: { summary: 'no subject' } });
      expect(fieldErrors(a)).to.deep.equal([{ code: 42201, field: 'subject', message: fieldErrors(a)[0]!.message }]);
    });

    it('PATCH with application/merge-patch+json changes only the given fields; null resets to the default', async () => {
      const t = await createTicket(api, agent.token, {
        subject: 'Patch me',
        summary: 'keep',
        priority: 'low',
        tags: ['t'],
        customer_id: customer.id,
      });
      api.clock.advance(500);
      const a = await patchJson(api, pathOf(t.url), { priority: 'high', tags: null }, agent.token);
      expect(a.status, a.text).to.equal(200);
      const r = obj(a);
      expect(r).to.deep.include({
        subject: 'Patch me',
        summary: 'keep',
        priority: 'high',
        tags: [],
        created_at: t.created_at,
      });
      expect(r.updated_at).to.equal(new Date(api.clock.now()).toISOString());
      const plainJson = await api.request('PATCH', pathOf(t.url), {
        token: agent.token,
        body: { summary: 'via json' },
      });
      expect(plainJson.status).to.equal(200);
      expect(obj(plainJson).summary).to.equal('via json');
    });

    it('PATCH refuses server-set fields and bad values in one 422; PUT does not take merge-patch', async () => {
      const t = await createTicket(api, agent.token, { subject: 'Strict', customer_id: customer.id });
      const a = await patchJson(
        api,
        pathOf(t.url),
        { closed_at: '2026-01-01T00:00:00.000Z', customer_name: 'x', priority: 'meh' },
        agent.token,
      );
      expect(fieldErrors(a).map((e) => [e.field, e.code])).to.deep.equal([
        ['closed_at', 42203],
        ['customer_name', 42203],
        ['priority', 42206],
      ]);
      const put = await api.request('PUT', pathOf(t.url), {
        token: agent.token,
        body: JSON.stringify({ subject: 'x' }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(put.status).to.equal(415);
      expect(obj(await api.get(pathOf(t.url), { token: agent.token })).subject).to.equal('Strict');
    });

    it('lets a customer change subject and summary but not priority (403)', async () => {
      const t = await createTicket(api, customer.token, { subject: 'Customer' });
      expect((await patchJson(api, pathOf(t.url), { summary: 'more' }, customer.token)).status).to.equal(200);
      const a = await patchJson(api, pathOf(t.url), { priority: 'urgent' }, customer.token);
      expect(a.status).to.equal(403);
    });

    it("names the fields a customer may not write by the API's names (403)", async () => {
      const t = await createTicket(api, customer.token, { subject: 'Mine' });
      const one = await patchJson(api, pathOf(t.url), { customer_id: agent.id }, customer.token);
      expect([one.status, obj(one).description]).to.deep.equal([403, 'customers may not write the field customer_id']);
      const two = await patchJson(
        api,
        pathOf(t.url),
        { assigned_user_id: agent.id, group_id: null, priority: 'low' },
        customer.token,
      );
      expect([two.status, obj(two).description]).to.deep.equal([
        403,
        'customers may not write the fields priority, assigned_user_id, group_id',
      ]);
    });
  });

  describe('states and closed_at', () => {
    it('walks open → pending → open → closed → open, setting closed_at on close and clearing it on reopen', async () => {
      const t = await createTicket(api, agent.token, { subject: 'States', customer_id: customer.id });
      const path = pathOf(t.url);
      const to = async (state: string): Promise<Json> => {
        api.clock.advance(1000);
        const a = await patchJson(api, path, { state }, agent.token);
        expect(a.status, a.text).to.equal(200);
        return obj(a);
      };
      expect(await to('pending')).to.include({ state: 'pending', closed_at: null });
      expect(await to('open')).to.include({ state: 'open', closed_at: null });
      const closed = await to('closed');
      expect(closed.state).to.equal('closed');
      expect(closed.closed_at).to.equal(new Date(api.clock.now()).toISOString()).and.equal(closed.updated_at);
      // A write that keeps it closed keeps the original closed_at.
      api.clock.advance(1000);
      const edited = obj(await patchJson(api, path, { summary: 'still closed' }, agent.token));
      expect(edited.closed_at).to.equal(closed.closed_at);
      expect(await to('open')).to.include({ state: 'open', closed_at: null });
    });

    it('refuses closed → pending with 422 invalid_transition on state and leaves the ticket unchanged', async () => {
      const t = await createTicket(api, agent.token, { subject: 'No pending', customer_id: customer.id });
      const closed = obj(await patchJson(api, pathOf(t.url), { state: 'closed' }, agent.token));
      const a = await patchJson(api, pathOf(t.url), { state: 'pending' }, agent.token);
      const errors = fieldErrors(a);
      expect(errors.map((e) => [e.field, e.code])).to.deep.equal([['state', 42208]]);
      // The refusal says where the ticket may go instead (contract §7.2).
      expect(errors[0]).to.deep.include({ allowed: ['open'] });
      expect(closed.allowed_transitions).to.deep.equal(['open']);
      const put = await api.request('PUT', pathOf(t.url), {
        token: agent.token,
        body: { subject: 'No pending', state: 'pending' },
      });
      expect(fieldErrors(put).map((e) => [e.field, e.code])).to.deep.equal([['state', 42208]]);
      expect((await api.get(pathOf(t.url), { token: agent.token })).json).to.deep.equal(closed);
    });

    it('lets a customer close and reopen but not set pending (403)', async () => {
      const t = await createTicket(api, customer.token, { subject: 'Customer states' });
      expect(obj(await patchJson(api, pathOf(t.url), { state: 'closed' }, customer.token)).state).to.equal('closed');
      expect(obj(await patchJson(api, pathOf(t.url), { state: 'open' }, customer.token)).state).to.equal('open');
      expect((await patchJson(api, pathOf(t.url), { state: 'pending' }, customer.token)).status).to.equal(403);
    });

    it('says in allowed_transitions where the caller may move the ticket now: by state and role, none once deleted', async () => {
      const t = await createTicket(api, agent.token, { subject: 'Where to', customer_id: customer.id });
      const path = pathOf(t.url);
      const seen = async (token: string): Promise<unknown> => obj(await api.get(path, { token })).allowed_transitions;
      expect(await seen(agent.token)).to.deep.equal(['pending', 'closed']);
      expect(await seen(customer.token)).to.deep.equal(['closed']);
      // Part of the representation, so of the ETag: an open ticket differs by role.
      expect((await api.get(path, { token: agent.token })).header('etag')).to.not.equal(
        (await api.get(path, { token: customer.token })).header('etag'),
      );
      await patchJson(api, path, { state: 'pending' }, agent.token);
      expect(await seen(agent.token)).to.deep.equal(['open', 'closed']);
      expect(await seen(customer.token)).to.deep.equal(['open', 'closed']);
      await patchJson(api, path, { state: 'closed' }, agent.token);
      expect(await seen(admin)).to.deep.equal(['open']);
      expect(await seen(customer.token)).to.deep.equal(['open']);
      // A field like any other: selectable, not writable.
      const only = await api.get(`${path}?fields=id,allowed_transitions`, { token: customer.token });
      expect(only.json).to.deep.equal({ id: t.id, allowed_transitions: ['open'] });
      const written = await patchJson(api, path, { allowed_transitions: ['pending'] }, agent.token);
      expect(fieldErrors(written).map((e) => [e.field, e.code])).to.deep.equal([['allowed_transitions', 42203]]);
      const deleted = await api.request('DELETE', path, { token: admin });
      expect(obj(deleted).allowed_transitions).to.deep.equal([]);
    });
  });

  describe('DELETE', () => {
    it('soft-deletes: 200, then the ticket and its messages answer 410 and it leaves the list', async () => {
      const t = await createTicket(api, agent.token, { subject: 'Doomed ticket zyxwv', customer_id: customer.id });
      const path = pathOf(t.url);
      const msg = await api.post(`${path}/messages`, { body: 'hello' }, { token: agent.token });
      expect(msg.status).to.equal(201);
      const del = await api.request('DELETE', path, { token: admin });
      expect(del.status).to.equal(200);
      for (const a of [
        await api.get(path, { token: admin }),
        await api.get(`/v1/ticket/${t.id as number}`, { token: admin }),
        await api.request('PUT', path, { token: admin, body: { subject: 'back' } }),
        await patchJson(api, path, { subject: 'back' }, admin),
        await api.request('DELETE', path, { token: admin }),
        await api.get(`${path}/messages`, { token: admin }),
        await api.get(`${path}/messages/1`, { token: admin }),
        await api.post(`${path}/messages`, { body: 'more' }, { token: admin }),
      ]) {
        expect(a.status, a.text).to.equal(410);
        expect(obj(a).code).to.equal(41001);
      }
      const list = arr(await api.get('/v1/tickets?q=zyxwv&per_page=100', { token: admin }));
      expect(list).to.have.length(0);
      const all = arr(await api.get('/v1/tickets?per_page=100', { token: admin }));
      expect(all.map((x) => x.id)).not.to.include(t.id);
    });

    it('is forbidden to agents and customers (403) on a ticket they can see', async () => {
      const t = await createTicket(api, customer.token, { subject: 'Keep me' });
      expect((await api.request('DELETE', pathOf(t.url), { token: customer.token })).status).to.equal(403);
      expect((await api.request('DELETE', pathOf(t.url), { token: agent.token })).status).to.equal(403);
      expect((await api.get(pathOf(t.url), { token: customer.token })).status).to.equal(200);
    });
  });

  describe('embed and fields', () => {
    let ticket: Json;
    let group: Json;
    before(async () => {
      const g = await api.post('/v1/groups', { name: 'Embed group', description: 'for embed' }, { token: admin });
      expect(g.status, g.text).to.equal(201);
      group = obj(g);
      ticket = await createTicket(api, agent.token, {
        subject: 'Embedded',
        customer_id: customer.id,
        assigned_user_id: agent.id,
        group_id: group.id as number,
      });
    });

    it('shows related resources as link objects without embed', () => {
      expect(ticket.assigned_user).to.deep.equal({ id: agent.id, url: `${api.origin}/v1/users/${agent.id}` });
      expect(ticket.group).to.deep.equal({ id: group.id, url: group.url });
    });

    it('expands embed=customer,group into the full representations', async () => {
      const t = obj(await api.get(`${pathOf(ticket.url)}?embed=customer,group`, { token: agent.token }));
      const c = t.customer as Json;
      expect(c).to.include({
        id: customer.id,
        url: `${api.origin}/v1/users/${customer.id}`,
        name: 'Ada Lovelace',
        role: 'customer',
      });
      expect(c).to.have.property('email');
      expect(c).not.to.have.property('password');
      expect(t.group).to.deep.equal(group);
      expect(t.assigned_user).to.deep.equal({ id: agent.id, url: `${api.origin}/v1/users/${agent.id}` });
    });

    it('embed=customer.name,assigned_user gives the link plus name, and the whole assignee', async () => {
      const t = obj(
        await api.get(`/v1/ticket/${ticket.id as number}?embed=customer.name,assigned_user`, { token: agent.token }),
      );
      expect(t.customer).to.deep.equal({
        id: customer.id,
        url: `${api.origin}/v1/users/${customer.id}`,
        name: 'Ada Lovelace',
      });
      expect(t.assigned_user).to.include({ id: agent.id, name: 'Grace Hopper', role: 'agent' });
    });

    it('shows a customer other users only by id, url and name, whatever embed asks for', async () => {
      const t = obj(
        await api.get(`${pathOf(ticket.url)}?embed=customer,assigned_user,group`, { token: customer.token }),
      );
      expect(t.assigned_user).to.deep.equal({
        id: agent.id,
        url: `${api.origin}/v1/users/${agent.id}`,
        name: 'Grace Hopper',
      });
      expect((t.customer as Json).email).to.be.a('string');
      expect(t.group).to.deep.equal({ id: group.id, url: group.url, name: 'Embed group' });
    });

    it('fields keeps only the named top-level fields (customer_name included), also with embed', async () => {
      const a = await api.get(`${pathOf(ticket.url)}?fields=id,customer_name,customer&embed=customer.name`, {
        token: agent.token,
      });
      expect(a.json).to.deep.equal({
        id: ticket.id,
        customer: { id: customer.id, url: `${api.origin}/v1/users/${customer.id}`, name: 'Ada Lovelace' },
        customer_name: 'Ada Lovelace',
      });
    });

    it('answers 400 naming an unknown field or embed', async () => {
      const f = await api.get(`${pathOf(ticket.url)}?fields=id,password`, { token: agent.token });
      expect(f.status).to.equal(400);
      expect(obj(f).code).to.equal(40001);
      expect(f.text).to.include('password');
      const e = await api.get(`${pathOf(ticket.url)}?embed=messages`, { token: agent.token });
      expect(e.status).to.equal(400);
      expect(e.text).to.include('messages');
      const sub = await api.get(`${pathOf(ticket.url)}?embed=customer.secret`, { token: agent.token });
      expect(sub.status).to.equal(400);
      expect(sub.text).to.include('secret');
    });
  });

  describe('recently_closed', () => {
    it('lists closed tickets of the last 7 days, newest closed first, the same by path and by q', async () => {
      const scoped = await api.userWithToken('customer', 'Recent Closer');
      const make = async (subject: string): Promise<Json> =>
        createTicket(api, agent.token, { subject, customer_id: scoped.id });
      const old = await make('old');
      const a = await make('a');
      const b = await make('b');
      await make('still open');
      await patchJson(api, pathOf(old.url), { state: 'closed' }, agent.token);
      api.clock.advance(8 * day);
      await patchJson(api, pathOf(b.url), { state: 'closed' }, agent.token);
      api.clock.advance(1000);
      await patchJson(api, pathOf(a.url), { state: 'closed' }, agent.token);
      const byPath = await api.get('/v1/tickets/recently_closed', { token: scoped.token });
      expect(byPath.status).to.equal(200);
      expect(arr(byPath).map((t) => t.id)).to.deep.equal([a.id, b.id]);
      const byQ = await api.get('/v1/tickets?q=recently_closed', { token: scoped.token });
      expect(byQ.json).to.deep.equal(byPath.json);
      expect(arr(await api.get('/v1/tickets/recently_closed?state=open', { token: scoped.token }))).to.deep.equal([]);
      expect(
        arr(await api.get('/v1/tickets/recently_closed?state=open,closed', { token: scoped.token })).map((t) => t.id),
      ).to.deep.equal([a.id, b.id]);
      const sorted = await api.get('/v1/tickets/recently_closed?sort=closed_at', { token: scoped.token });
      expect(arr(sorted).map((t) => t.id)).to.deep.equal([b.id, a.id]);
      api.clock.advance(7 * day - 500);
      expect(arr(await api.get('/v1/tickets/recently_closed', { token: scoped.token })).map((t) => t.id)).to.deep.equal(
        [a.id],
      );
    });
  });
});
