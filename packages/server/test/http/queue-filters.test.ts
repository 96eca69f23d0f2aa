import { queueParameterNames } from '@support/adapter-http-koa';
import { expect } from 'chai';
import type { Answer } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { arr, createTicket, linkRels, obj, patchJson, pathOf, type Json } from '../support/resources.js';

// Contract §5, "Queue filters", over HTTPS on the real service: assigned_user_id (ids, me,
// none), group_id (ids, none), customer_id, priority, tags (all listed), updated_since; AND
// across parameters, OR within a list; malformed values 400 naming them; unknown ids an empty
// list; a customer's list only narrows; Link URLs keep the filters; a ticket that leaves a
// queue leaves its cached page at once (no 304 for the old page). The stores' agreement with
// the domain's reference filter is the contract suites' (property tests on every store).

describe('HTTP: queue filters on GET /v1/tickets', () => {
  let admin: string;
  let ada: { id: number; token: string };
  let bob: { id: number; token: string };
  let zoe: { id: number; token: string };
  let lin: { id: number; token: string };
  let groups: number[] = [];
  /** Ticket ids by name. */
  const t: Record<string, number> = {};

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    ada = await api.userWithToken('agent', 'Ada Agent');
    bob = await api.userWithToken('agent', 'Bob Agent');
    zoe = await api.userWithToken('customer', 'Zoë Customer');
    lin = await api.userWithToken('customer', 'Lin Customer');
    groups = [];
    for (const name of ['Billing', 'Hardware']) {
      const g = await api.post('/v1/groups', { name }, { token: admin });
      expect(g.status, g.text).to.equal(201);
      groups.push(obj(g).id as number);
    }
    const [billing, hardware] = groups as [number, number];
    const make = async (name: string, input: Json): Promise<void> => {
      api.clock.advance(60_000);
      t[name] = (await createTicket(api, admin, { subject: name, ...input })).id as number;
    };
    await make('adaUrgentVip', {
      customer_id: zoe.id,
      assigned_user_id: ada.id,
      group_id: billing,
      priority: 'urgent',
      tags: ['vip', 'billing'],
    });
    await make('adaLow', { customer_id: zoe.id, assigned_user_id: ada.id, priority: 'low', tags: ['vip'] });
    await make('bobHigh', { customer_id: lin.id, assigned_user_id: bob.id, group_id: hardware, priority: 'high' });
    await make('nobodyNormal', { customer_id: lin.id, group_id: billing, tags: ['billing'] });
    await make('nobodyUrgent', { customer_id: zoe.id, priority: 'urgent' });
    await make('adaClosed', { customer_id: lin.id, assigned_user_id: ada.id, priority: 'urgent', tags: ['vip'] });
    expect((await patchJson(api, `/v1/tickets/${t.adaClosed!}`, { state: 'closed' }, admin)).status).to.equal(200);
  });

  const names = (a: Answer): string[] =>
    arr(a).map((x) => Object.keys(t).find((k) => t[k] === x.id) ?? `#${String(x.id)}`);
  const list = async (query: string, token = admin): Promise<string[]> => {
    const a = await api.get(`/v1/tickets?${query}`, { token });
    expect(a.status, `${query}: ${a.text}`).to.equal(200);
    expect(a.header('x-total-count'), query).to.equal(String(arr(a).length));
    return names(a);
  };

  it('assigned_user_id: ids, me (the caller), none (unassigned), and any of a list', async () => {
    expect(await list(`assigned_user_id=${ada.id}`)).to.have.members(['adaUrgentVip', 'adaLow', 'adaClosed']);
    expect(await list('assigned_user_id=me', ada.token)).to.have.members(['adaUrgentVip', 'adaLow', 'adaClosed']);
    expect(await list('assigned_user_id=me', bob.token)).to.deep.equal(['bobHigh']);
    expect(await list('assigned_user_id=none')).to.have.members(['nobodyNormal', 'nobodyUrgent']);
    expect(await list(`assigned_user_id=${bob.id},none`)).to.have.members(['bobHigh', 'nobodyNormal', 'nobodyUrgent']);
    // Repeating the parameter is the same comma list.
    expect(await list(`assigned_user_id=${bob.id}&assigned_user_id=none`)).to.have.members([
      'bobHigh',
      'nobodyNormal',
      'nobodyUrgent',
    ]);
  });

  it('my open tickets, most urgent first (the README walk-through)', async () => {
    expect(await list('assigned_user_id=me&state=open&sort=-priority', ada.token)).to.deep.equal([
      'adaUrgentVip',
      'adaLow',
    ]);
  });

  it('group_id (ids, none), customer_id, priority, tags (every one listed), updated_since', async () => {
    const [billing, hardware] = groups as [number, number];
    expect(await list(`group_id=${billing}`)).to.have.members(['adaUrgentVip', 'nobodyNormal']);
    expect(await list(`group_id=${hardware},none`)).to.have.members(['bobHigh', 'adaLow', 'nobodyUrgent', 'adaClosed']);
    expect(await list(`customer_id=${lin.id}`)).to.have.members(['bobHigh', 'nobodyNormal', 'adaClosed']);
    expect(await list(`customer_id=${lin.id},${zoe.id}`)).to.have.length(6);
    expect(await list('priority=urgent&sort=id')).to.deep.equal(['adaUrgentVip', 'nobodyUrgent', 'adaClosed']);
    expect(await list('priority=high,low&sort=id')).to.deep.equal(['adaLow', 'bobHigh']);
    expect(await list('tags=vip&sort=id')).to.deep.equal(['adaUrgentVip', 'adaLow', 'adaClosed']);
    expect(await list('tags=vip,billing')).to.deep.equal(['adaUrgentVip']);
    expect(await list('tags=VIP')).to.deep.equal([]);
    const third = obj(await api.get(`/v1/tickets/${t.bobHigh!}`, { token: admin })).updated_at as string;
    expect(await list(`updated_since=${third}&sort=updated_at`)).to.deep.equal([
      'bobHigh',
      'nobodyNormal',
      'nobodyUrgent',
      'adaClosed',
    ]);
    const justAfter = new Date(Date.parse(third) + 1).toISOString();
    expect(await list(`updated_since=${justAfter}&sort=updated_at`)).to.deep.equal([
      'nobodyNormal',
      'nobodyUrgent',
      'adaClosed',
    ]);
    // The same instant with an offset; a "+" that arrives as a space is read back as "+".
    const shifted = new Date(Date.parse(third) + 3_600_000).toISOString().replace('Z', '+01:00');
    expect(await list(`updated_since=${encodeURIComponent(shifted)}`)).to.have.length(4);
    expect(await list(`updated_since=${shifted}`)).to.have.length(4);
  });

  it('ANDs across filters and with state and q', async () => {
    expect(await list(`assigned_user_id=${ada.id}&tags=vip&priority=urgent&sort=id`)).to.deep.equal([
      'adaUrgentVip',
      'adaClosed',
    ]);
    expect(await list(`assigned_user_id=${ada.id}&tags=vip&priority=urgent&state=open`)).to.deep.equal([
      'adaUrgentVip',
    ]);
    expect(await list(`customer_id=${zoe.id}&q=nobodyurgent`)).to.deep.equal(['nobodyUrgent']);
    expect(await list(`group_id=none&assigned_user_id=none`)).to.deep.equal(['nobodyUrgent']);
  });

  it('a well-formed id that matches nothing answers an empty list', async () => {
    for (const q of [
      'assigned_user_id=999999',
      'group_id=999999',
      'customer_id=999999',
      'tags=nobody-has-it',
      'updated_since=2999-01-01T00:00:00Z',
    ]) {
      expect(await list(q), q).to.deep.equal([]);
    }
  });

  it("a customer's list stays their own: filters only narrow it", async () => {
    expect(await list('', zoe.token)).to.have.members(['adaUrgentVip', 'adaLow', 'nobodyUrgent']);
    expect(await list(`customer_id=${lin.id}`, zoe.token)).to.deep.equal([]);
    expect(await list(`customer_id=${lin.id},${zoe.id}`, zoe.token)).to.have.members([
      'adaUrgentVip',
      'adaLow',
      'nobodyUrgent',
    ]);
    expect(await list(`assigned_user_id=${ada.id}`, zoe.token)).to.have.members(['adaUrgentVip', 'adaLow']);
    expect(await list('assigned_user_id=me', zoe.token)).to.deep.equal([]);
    expect(await list('priority=urgent', zoe.token)).to.have.members(['adaUrgentVip', 'nobodyUrgent']);
  });

  it('a malformed value is 400 (40001) naming each bad parameter', async () => {
    const bad = async (query: string, params: string[]): Promise<void> => {
      const a = await api.get(`/v1/tickets?${query}`, { token: admin });
      expect(a.status, `${query}: ${a.text}`).to.equal(400);
      const body = obj(a);
      expect(body.code).to.equal(40001);
      expect(
        (body.errors as { field: string }[]).map((e) => e.field),
        query,
      ).to.have.members(params);
    };
    await bad('assigned_user_id=someone', ['assigned_user_id']);
    await bad('assigned_user_id=0', ['assigned_user_id']);
    await bad('assigned_user_id=007', ['assigned_user_id']);
    await bad('assigned_user_id=9007199254740992', ['assigned_user_id']);
    await bad('assigned_user_id=me,', ['assigned_user_id']);
    await bad('group_id=me', ['group_id']);
    await bad('customer_id=none', ['customer_id']);
    await bad('priority=critical', ['priority']);
    await bad(`tags=${'x'.repeat(51)}`, ['tags']);
    await bad(`customer_id=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, ['customer_id']);
    for (const since of [
      'yesterday',
      '2026-11-25',
      '2026-02-30T00:00:00Z',
      '2026-11-25T08:00:00',
      '2026-11-25T24:00:00Z',
      '',
    ]) {
      await bad(`updated_since=${encodeURIComponent(since)}`, ['updated_since']);
    }
    await bad('priority=critical&group_id=x&tags=ok', ['priority', 'group_id']);
  });

  it('Link URLs keep the filters (every page, first to last)', async () => {
    const query = `assigned_user_id=${ada.id},none&tags=vip&priority=urgent,low&updated_since=2000-01-01T00:00:00Z&per_page=1`;
    const a = await api.get(`/v1/tickets?${query}`, { token: admin });
    expect(a.status, a.text).to.equal(200);
    expect(a.header('x-total-count')).to.equal('3');
    const rels = linkRels(a.header('link'));
    for (const rel of ['next', 'last', 'first']) {
      const url = new URL(`https://x${pathOf(rels[rel])}`);
      for (const p of ['assigned_user_id', 'tags', 'priority', 'updated_since'])
        expect(url.searchParams.get(p), `${rel} ${p}`).to.equal(new URLSearchParams(query).get(p));
    }
    const next = await api.get(pathOf(rels.next), { token: admin });
    expect(next.header('x-total-count')).to.equal('3');
    expect(names(next)).to.have.length(1);
  });

  it('the served document lists the filters, and each of their examples runs (200)', async () => {
    const doc = obj(await api.get('/v1/openapi.json'));
    const op = ((doc.paths as Json)['/v1/tickets'] as Json).get as Json;
    const components = (doc.components as Json).parameters as Record<string, Json>;
    const params = (op.parameters as Json[]).map((p) =>
      '$ref' in p ? (components[String(p.$ref).split('/').pop() ?? ''] as Json) : p,
    );
    // The decoder's names, one per queue condition of the domain (queueParameters is typed
    // against QueueQuery): a filter the document leaves out fails here.
    const queue = params.filter((p) => queueParameterNames.includes(p.name as string));
    expect(queue.map((p) => p.name)).to.have.members([...queueParameterNames]);
    expect(queueParameterNames).to.include.members([
      'assigned_user_id',
      'group_id',
      'customer_id',
      'priority',
      'tags',
      'updated_since',
    ]);
    let ran = 0;
    for (const p of queue) {
      for (const [key, example] of Object.entries(p.examples as Record<string, { value: unknown }>)) {
        const value = Array.isArray(example.value) ? example.value.join(',') : String(example.value);
        const a = await api.get(`/v1/tickets?${String(p.name)}=${encodeURIComponent(value)}`, { token: ada.token });
        expect(a.status, `${String(p.name)} example ${key}: ${a.text}`).to.equal(200);
        ran += 1;
      }
    }
    expect(ran).to.be.at.least(12);
  });

  it('a ticket that leaves a queue (reassigned, regrouped, retagged, closed) leaves its page: the old ETag no longer answers 304', async () => {
    const [billing] = groups as [number, number];
    const queues = [
      ['assigned_user_id=me', { assigned_user_id: bob.id }, { assigned_user_id: ada.id }],
      [`group_id=${billing}`, { group_id: null }, { group_id: billing }],
      ['tags=vip', { tags: [] }, { tags: ['vip', 'billing'] }],
      ['state=open&priority=urgent', { state: 'closed' }, { state: 'open' }],
    ] as const;
    for (const [query, leave, rejoin] of queues) {
      const path = `/v1/tickets?${query}`;
      const before = await api.get(path, { token: ada.token });
      expect(names(before), query).to.include('adaUrgentVip');
      const tag = before.header('etag') ?? '';
      expect((await api.get(path, { token: ada.token, headers: { 'if-none-match': tag } })).status).to.equal(304);
      api.clock.advance(1000);
      expect((await patchJson(api, `/v1/tickets/${t.adaUrgentVip!}`, leave, admin)).status).to.equal(200);
      const after = await api.get(path, { token: ada.token, headers: { 'if-none-match': tag } });
      expect(after.status, `${query}: the page the ticket left`).to.equal(200);
      expect(names(after), query).to.not.include('adaUrgentVip');
      api.clock.advance(1000);
      expect((await patchJson(api, `/v1/tickets/${t.adaUrgentVip!}`, rejoin, admin)).status).to.equal(200);
      expect(names(await api.get(path, { token: ada.token })), query).to.include('adaUrgentVip');
    }
  });
});
