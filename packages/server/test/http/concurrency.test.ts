import { expect } from 'chai';
import type { Answer } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { arr, createTicket, obj, patchJson, pathOf, type Json } from '../support/resources.js';

// Many requests in flight at once against STORE=memory: nothing is lost, duplicated or mixed.

const n = 50;
const times = <T>(count: number, f: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: count }, (_, i) => f(i)));

describe('HTTP: concurrent requests (STORE=memory)', () => {
  let admin: string;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };

  const api = suiteApi({ STORE: 'memory', RATE_LIMIT: '100000' });
  before(async () => {
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Parallel Agent');
    customer = await api.userWithToken('customer', 'Parallel Customer');
  });

  it(`creates ${n} tickets at once: all 201, unique ids and Locations, X-Total-Count equals the count`, async () => {
    const before = Number((await api.get('/v1/tickets?per_page=1', { token: admin })).header('x-total-count'));
    const created = await times(n, (i) =>
      api.post('/v1/tickets', { subject: `Parallel ${i}`, customer_id: customer.id }, { token: agent.token }),
    );
    for (const a of created) expect(a.status, a.text).to.equal(201);
    const ids = created.map((a) => obj(a).id as number);
    expect(new Set(ids).size).to.equal(n);
    expect(new Set(created.map((a) => a.header('location'))).size).to.equal(n);
    created.forEach((a, i) => {
      expect(obj(a).subject).to.equal(`Parallel ${i}`);
    });
    const list = await api.get('/v1/tickets?per_page=100', { token: admin });
    expect(Number(list.header('x-total-count'))).to.equal(before + n);
    const listed = new Set(arr(list).map((t) => t.id));
    for (const id of ids) expect(listed.has(id)).to.equal(true);
    // Each created ticket reads back as created (for the same caller: allowed_transitions depends on the role).
    const reads = await times(n, (i) => api.get(`/v1/tickets/${ids[i]!}`, { token: agent.token }));
    reads.forEach((r, i) => {
      expect(r.json).to.deep.equal(created[i]!.json);
    });
  });

  it(`posts ${n} messages to one ticket at once: numbers exactly 1..${n}, each body once`, async () => {
    const t = await createTicket(api, agent.token, { subject: 'Busy ticket', customer_id: customer.id });
    const posted = await times(n, (i) =>
      api.post(pathOf(t.messages_url), { body: `message ${i}` }, { token: i % 2 === 0 ? agent.token : customer.token }),
    );
    for (const a of posted) expect(a.status, a.text).to.equal(201);
    const numbers = posted.map((a) => obj(a).id as number).sort((x, y) => x - y);
    expect(numbers).to.deep.equal(Array.from({ length: n }, (_, i) => i + 1));
    posted.forEach((a, i) => {
      expect(obj(a).body).to.equal(`message ${i}`);
      expect(a.header('location')).to.equal(obj(a).url);
    });
    const list = await api.get(`${pathOf(t.messages_url)}?per_page=100`, { token: customer.token });
    expect(list.header('x-total-count')).to.equal(String(n));
    const items = arr(list);
    expect(items.map((m) => m.id)).to.deep.equal(Array.from({ length: n }, (_, i) => i + 1));
    expect(new Set(items.map((m) => m.body)).size).to.equal(n);
    // The next message continues the sequence.
    const next = await api.post(pathOf(t.messages_url), { body: 'after the storm' }, { token: agent.token });
    expect(obj(next).id).to.equal(n + 1);
  });

  it('keeps the messages of several tickets apart when they are posted at once', async () => {
    const tickets = await times(5, (i) =>
      createTicket(api, agent.token, { subject: `Side ${i}`, customer_id: customer.id }),
    );
    const posted = await times(n, (i) =>
      api.post(pathOf(tickets[i % 5]!.messages_url), { body: `to ${i % 5}` }, { token: agent.token }),
    );
    for (const a of posted) expect(a.status, a.text).to.equal(201);
    for (const [k, t] of tickets.entries()) {
      const items = arr(await api.get(`${pathOf(t.messages_url)}?per_page=100`, { token: agent.token }));
      expect(items.map((m) => m.id)).to.deep.equal(Array.from({ length: n / 5 }, (_, i) => i + 1));
      for (const m of items) expect(m.body).to.equal(`to ${k}`);
    }
  });

  it(`applies ${n} concurrent PATCHes of disjoint fields without losing any of them`, async () => {
    const group = obj(await api.post('/v1/groups', { name: 'Concurrent group' }, { token: admin }));
    const tickets = await times(10, (i) =>
      createTicket(api, agent.token, { subject: `Disjoint ${i}`, customer_id: customer.id }),
    );
    const patches: Json[] = [
      { subject: 'changed subject' },
      { summary: 'changed summary' },
      { priority: 'urgent' },
      { tags: ['a', 'b'] },
      { assigned_user_id: agent.id, group_id: group.id },
    ];
    const answers = await times(n, (i) =>
      patchJson(api, pathOf(tickets[i % 10]!.url), patches[Math.floor(i / 10)], agent.token),
    );
    for (const a of answers) expect(a.status, a.text).to.equal(200);
    for (const t of tickets) {
      const now = obj(await api.get(pathOf(t.url), { token: agent.token }));
      expect(now).to.deep.include({
        subject: 'changed subject',
        summary: 'changed summary',
        priority: 'urgent',
        tags: ['a', 'b'],
        assigned_user: { id: agent.id, url: `${api.origin}/v1/users/${agent.id}` },
        group: { id: group.id, url: group.url },
        created_at: t.created_at,
      });
    }
  });

  it('lets exactly one of many PATCHes with the same If-Match win; the others get 412', async () => {
    const t = await createTicket(api, agent.token, { subject: 'Contended', customer_id: customer.id });
    const read = await api.get(pathOf(t.url), { token: agent.token });
    const etag = read.header('etag')!;
    expect(etag).to.match(/^"/);
    const answers = await times(n, (i) =>
      patchJson(api, pathOf(t.url), { summary: `writer ${i}` }, agent.token, { 'If-Match': etag }),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).to.have.length(1);
    for (const a of answers) expect([200, 412]).to.include(a.status);
    const now = await api.get(pathOf(t.url), { token: agent.token });
    expect(obj(now).summary).to.equal(obj(won[0]!).summary);
    expect(now.header('etag')).not.to.equal(etag);
  });

  it('does not lose a PATCH to messages that touch the ticket at the same time', async () => {
    const t = await createTicket(api, agent.token, { subject: 'Touched', customer_id: customer.id });
    const write = (i: number): Promise<Answer> => {
      if (i === 10) return patchJson(api, pathOf(t.url), { priority: 'high' }, agent.token);
      if (i === 30) return patchJson(api, pathOf(t.url), { state: 'pending' }, agent.token);
      return api.post(pathOf(t.messages_url), { body: `m${i}` }, { token: customer.token });
    };
    const answers = await times(n, write);
    for (const a of answers) expect([200, 201], a.text).to.include(a.status);
    const now = obj(await api.get(pathOf(t.url), { token: agent.token }));
    expect(now).to.include({ priority: 'high', state: 'pending', subject: 'Touched' });
    const newest = answers
      .map((a) => obj(a).updated_at as string)
      .sort()
      .at(-1);
    expect(now.updated_at).to.equal(newest);
  });

  it('creates one user out of many concurrent requests for the same e-mail (any case); the rest are 422 not_unique', async () => {
    const answers = await times(20, (i) =>
      api.post(
        '/v1/users',
        { name: `Racer ${i}`, email: i % 2 === 0 ? 'racer@example.com' : 'RACER@example.com', password: 'password-1' },
        { token: admin },
      ),
    );
    expect(answers.filter((a) => a.status === 201)).to.have.length(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).to.equal(422);
      expect(obj(a).errors).to.deep.equal([
        { code: 42207, field: 'email', message: (obj(a).errors as Json[])[0]!.message },
      ]);
    }
    const users = arr(await api.get('/v1/users?per_page=100', { token: admin }));
    expect(users.filter((u) => (u.email as string).toLowerCase() === 'racer@example.com')).to.have.length(1);
  });

  it(`counts every one of ${n} concurrent requests against the rate limit exactly once`, async () => {
    const user = await api.userWithToken('agent', 'Counted');
    const first = await api.get('/v1/users/me', { token: user.token });
    const limit = Number(first.header('x-rate-limit-limit'));
    const start = Number(first.header('x-rate-limit-remaining'));
    expect(limit).to.equal(100000);
    expect(start).to.be.lessThan(limit);
    const answers = await times(n, () => api.get('/v1/users/me', { token: user.token }));
    const remaining = answers.map((a) => Number(a.header('x-rate-limit-remaining'))).sort((x, y) => y - x);
    expect(remaining).to.deep.equal(Array.from({ length: n }, (_, i) => start - 1 - i));
    const last = await api.get('/v1/users/me', { token: user.token });
    expect(Number(last.header('x-rate-limit-remaining'))).to.equal(start - n - 1);
  });
});
