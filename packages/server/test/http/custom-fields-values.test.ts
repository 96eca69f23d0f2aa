import { expect } from 'chai';
import type { Answer } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { arr, fieldErrors, linkRels, obj, patchJson, pathOf, type Json } from '../support/resources.js';

// Contract §10 over HTTPS: a ticket's custom_fields (keyed by key, null when unset, only what
// the caller may see), written by POST/PUT (whole) and PATCH (merge), refused per key, and
// queried: cf.<key> (OR, none, multiselect ALL), .gte/.lte, sort=cf.<key> (unset last both
// ways), q over text values, fields=, with §5's filters, paging and the response cache.

describe('HTTP: custom ticket fields, the values and the queries (contract §10)', () => {
  let admin: string;
  let agent: { id: number; token: string };
  let zoe: { id: number; token: string };
  const t: Record<string, number> = {};

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Ada Agent');
    zoe = await api.userWithToken('customer', 'Zoë Customer');
    const fields: Json[] = [
      {
        key: 'tier',
        title: 'Tier',
        type: 'dropdown',
        options: [{ value: 'free' }, { value: 'gold' }],
        customer_visible: true,
        customer_editable: true,
      },
      { key: 'order_no', title: 'Order', type: 'regexp', pattern: '^ORD-[0-9]{4}$', customer_visible: true },
      { key: 'seats', title: 'Seats', type: 'integer' },
      { key: 'amount', title: 'Amount', type: 'decimal' },
      { key: 'renewal', title: 'Renewal', type: 'date' },
      { key: 'vip', title: 'VIP', type: 'checkbox' },
      {
        key: 'areas',
        title: 'Areas',
        type: 'multiselect',
        options: [{ value: 'api' }, { value: 'ui' }, { value: 'billing' }],
      },
      { key: 'notes', title: 'Notes', type: 'textarea' },
    ];
    for (const f of fields) expect((await api.post('/v1/ticket_fields', f, { token: admin })).status).to.equal(201);
    const make = async (name: string, custom: Json, extra: Json = {}): Promise<void> => {
      api.clock.advance(60_000);
      const a = await api.post(
        '/v1/tickets',
        { subject: name, customer_id: zoe.id, custom_fields: custom, ...extra },
        { token: admin },
      );
      expect(a.status, a.text).to.equal(201);
      t[name] = obj(a).id as number;
    };
    await make('a', {
      tier: 'gold',
      seats: 10,
      amount: 19.99,
      renewal: '2026-03-01',
      vip: true,
      areas: ['api', 'ui'],
      notes: 'printer smoke',
    });
    await make(
      'b',
      { tier: 'free', seats: 3, amount: 0.5, renewal: '2025-12-31', vip: false, areas: ['api'] },
      { assigned_user_id: agent.id },
    );
    await make(
      'c',
      { tier: 'gold', seats: 25, order_no: 'ORD-1234', areas: ['ui', 'billing', 'api'] },
      { assigned_user_id: agent.id },
    );
    await make('d', {});
  });

  const names = (a: Answer): string[] =>
    arr(a).map((x) => Object.keys(t).find((k) => t[k] === x.id) ?? `#${String(x.id)}`);
  const list = async (query: string, token = admin): Promise<string[]> => {
    const a = await api.get(`/v1/tickets?${query}`, { token });
    expect(a.status, `${query}: ${a.text}`).to.equal(200);
    expect(a.header('x-total-count')).to.equal(String(arr(a).length));
    return names(a);
  };

  it('every representation carries custom_fields keyed by key, null when unset, as the caller may see it', async () => {
    const a = obj(await api.get(`/v1/tickets/${t.a!}`, { token: admin }));
    expect(a.custom_fields).to.deep.equal({
      tier: 'gold',
      order_no: null,
      seats: 10,
      amount: 19.99,
      renewal: '2026-03-01',
      vip: true,
      areas: ['api', 'ui'],
      notes: 'printer smoke',
    });
    const asCustomer = obj(await api.get(`/v1/tickets/${t.c!}`, { token: zoe.token }));
    expect(asCustomer.custom_fields).to.deep.equal({ tier: 'gold', order_no: 'ORD-1234' });
  });

  it('refuses bad values with one 422 per key, custom_fields.<key>, and stores nothing', async () => {
    const before = obj(await api.get(`/v1/tickets/${t.a!}`, { token: admin }));
    const bad = await patchJson(
      api,
      `/v1/tickets/${t.a!}`,
      {
        subject: 'changed',
        custom_fields: {
          tier: 'platinum',
          seats: 1.5,
          amount: 1.23456,
          renewal: '2026-02-30',
          vip: 'yes',
          areas: ['nope'],
          order_no: 'ORD-12',
          nosuch: 1,
        },
      },
      admin,
    );
    expect(fieldErrors(bad).map((e) => e.field)).to.deep.equal(
      ['amount', 'areas', 'nosuch', 'order_no', 'renewal', 'seats', 'tier', 'vip'].map((k) => `custom_fields.${k}`),
    );
    expect(obj(await api.get(`/v1/tickets/${t.a!}`, { token: admin }))).to.deep.equal(before);
    const tooLong = await api.post(
      '/v1/tickets',
      { subject: 's', customer_id: zoe.id, custom_fields: { notes: 'x'.repeat(10001) } },
      { token: admin },
    );
    expect(fieldErrors(tooLong).map((e) => e.field)).to.deep.equal(['custom_fields.notes']);
    // Every bad field at once: a body refused for another field still names its bad values.
    const both = await api.post(
      '/v1/tickets',
      { subject: '', customer_id: zoe.id, custom_fields: { seats: 'ten', nosuch: 1 } },
      { token: admin },
    );
    expect(fieldErrors(both).map((e) => e.field)).to.deep.equal([
      'custom_fields.nosuch',
      'custom_fields.seats',
      'subject',
    ]);
    const patched = await patchJson(
      api,
      `/v1/tickets/${t.a!}`,
      { priority: 'asap', custom_fields: { vip: 'yes' } },
      admin,
    );
    expect(fieldErrors(patched).map((e) => e.field)).to.deep.equal(['custom_fields.vip', 'priority']);
    expect(obj(await api.get(`/v1/tickets/${t.a!}`, { token: admin }))).to.deep.equal(before);
  });

  it('a body of more than 20,000 values (read thinned, contract §11) is refused for its custom_fields too', async () => {
    const before = obj(await api.get(`/v1/tickets/${t.a!}`, { token: admin }));
    // The list is the field's own: refused by its length, not taken as "no values given".
    const long = await patchJson(
      api,
      `/v1/tickets/${t.a!}`,
      { custom_fields: { areas: Array.from({ length: 30_000 }, () => 'api') } },
      admin,
    );
    expect(fieldErrors(long)).to.deep.equal([
      { code: 42205, field: 'custom_fields.areas', message: 'must hold at most 50 values (got 30000)' },
    ]);
    const created = await api.post(
      '/v1/tickets',
      { subject: 's', customer_id: zoe.id, custom_fields: { areas: Array.from({ length: 30_000 }, () => 'ui') } },
      { token: admin },
    );
    expect(fieldErrors(created).map((e) => e.field)).to.deep.equal(['custom_fields.areas']);
    expect(obj(await api.get(`/v1/tickets/${t.a!}`, { token: admin }))).to.deep.equal(before);
  });

  it('POST and PUT take the whole object (an omitted key is unset), PATCH only the keys given', async () => {
    const path = `/v1/tickets/${t.d!}`;
    const patched = await patchJson(api, path, { custom_fields: { seats: 7 } }, admin);
    expect((obj(patched).custom_fields as Json).seats).to.equal(7);
    const again = await patchJson(api, path, { custom_fields: { vip: true } }, admin);
    expect(obj(again).custom_fields).to.include({ seats: 7, vip: true });
    const put = await api.request('PUT', path, { token: admin, body: { subject: 'd', custom_fields: { vip: false } } });
    expect(put.status, put.text).to.equal(200);
    expect(obj(put).custom_fields).to.include({ seats: null, vip: false });
    const cleared = await patchJson(api, path, { custom_fields: { vip: null } }, admin);
    expect((obj(cleared).custom_fields as Json).vip).to.equal(null);
  });

  it('required fields bind agents and admins creating or replacing; customers write only editable fields', async () => {
    const f = obj(
      await api.post(
        '/v1/ticket_fields',
        { key: 'product', title: 'Product', type: 'text', required: true },
        { token: admin },
      ),
    );
    const missing = await api.post('/v1/tickets', { subject: 's', customer_id: zoe.id }, { token: agent.token });
    expect(fieldErrors(missing).map((e) => e.field)).to.deep.equal(['custom_fields.product']);
    const mine = await api.post(
      '/v1/tickets',
      { subject: 'mine', custom_fields: { tier: 'free' } },
      { token: zoe.token },
    );
    expect(mine.status, mine.text).to.equal(201);
    expect(obj(mine).custom_fields).to.deep.equal({ tier: 'free', order_no: null });
    const notEditable = await api.post(
      '/v1/tickets',
      { subject: 'x', custom_fields: { order_no: 'ORD-0001' } },
      { token: zoe.token },
    );
    expect(fieldErrors(notEditable).map((e) => e.field)).to.deep.equal(['custom_fields.order_no']);
    const hidden = await api.post('/v1/tickets', { subject: 'x', custom_fields: { seats: 1 } }, { token: zoe.token });
    expect(fieldErrors(hidden).map((e) => e.field)).to.deep.equal(['custom_fields.seats']);
    expect((await api.request('DELETE', `/v1/ticket_fields/${String(f.id)}`, { token: admin })).status).to.equal(200);
    expect((await api.request('DELETE', `/v1/tickets/${String(obj(mine).id)}`, { token: admin })).status).to.equal(200);
  });

  it('cf.<key>: equality, a comma list (OR), none (unset), multiselect ALL', async () => {
    expect(await list('cf.tier=gold&sort=id')).to.deep.equal(['a', 'c']);
    expect(await list('cf.tier=gold,free&sort=id')).to.deep.equal(['a', 'b', 'c']);
    expect(await list('cf.tier=none')).to.deep.equal(['d']);
    expect(await list('cf.tier=free,none&sort=id')).to.deep.equal(['b', 'd']);
    expect(await list('cf.vip=true')).to.deep.equal(['a']);
    expect(await list('cf.areas=api,ui&sort=id')).to.deep.equal(['a', 'c']);
    expect(await list('cf.areas=billing')).to.deep.equal(['c']);
    expect(await list('cf.order_no=ORD-1234')).to.deep.equal(['c']);
    expect(await list('cf.renewal=2026-03-01')).to.deep.equal(['a']);
  });

  it('.gte/.lte for integer, decimal and date; combined with state, assigned_user_id=me and q', async () => {
    expect(await list('cf.seats.gte=10&sort=id')).to.deep.equal(['a', 'c']);
    expect(await list('cf.seats.gte=4&cf.seats.lte=24')).to.deep.equal(['a']);
    expect(await list('cf.amount.lte=1')).to.deep.equal(['b']);
    expect(await list('cf.renewal.gte=2026-01-01')).to.deep.equal(['a']);
    expect(await list('cf.tier=gold&assigned_user_id=me&state=open', agent.token)).to.deep.equal(['c']);
    expect(await list('q=smoke')).to.deep.equal(['a']);
    expect(await list('q=printer&cf.tier=gold')).to.deep.equal(['a']);
    // A customer's q searches only the fields she may see.
    expect(await list('q=smoke', zoe.token)).to.deep.equal([]);
    expect(await list('q=1234', zoe.token)).to.deep.equal(['c']);
  });

  it('sort=cf.<key>: unset last in both directions, id breaking ties', async () => {
    expect(await list('sort=cf.seats')).to.deep.equal(['b', 'a', 'c', 'd']);
    expect(await list('sort=-cf.seats')).to.deep.equal(['c', 'a', 'b', 'd']);
    expect(await list('sort=cf.tier')).to.deep.equal(['b', 'a', 'c', 'd']);
    expect(await list('sort=-cf.tier')).to.deep.equal(['c', 'a', 'b', 'd']);
    expect(await list('sort=-cf.renewal,id')).to.deep.equal(['a', 'b', 'c', 'd']);
  });

  it('400 for unknown keys, malformed values, ranges and sorts a type does not take', async () => {
    for (const q of [
      'cf.nosuch=1',
      'cf.seats=ten',
      'cf.tier=platinum',
      'cf.renewal=2026-13-01',
      'cf.vip=yes',
      'cf.tier.gte=free',
      'sort=cf.areas',
      'sort=cf.notes',
      'sort=cf.nosuch',
      'fields=cf.nosuch',
      'cf.Bad=1',
      'cf.seats=',
    ]) {
      const a = await api.get(`/v1/tickets?${q}`, { token: admin });
      expect(a.status, `${q}: ${a.text}`).to.equal(400);
    }
    // A customer does not see seats: to her it is no field.
    expect((await api.get('/v1/tickets?cf.seats=10', { token: zoe.token })).status).to.equal(400);
  });

  it('fields=custom_fields and fields=cf.<key> select them; Link keeps the filters', async () => {
    const some = arr(await api.get(`/v1/tickets?fields=id,cf.seats&sort=id`, { token: admin }));
    expect(some[0]).to.deep.equal({ id: t.a, custom_fields: { seats: 10 } });
    const all = arr(await api.get(`/v1/tickets?fields=custom_fields&sort=id`, { token: admin }));
    expect(Object.keys(all[0]!)).to.deep.equal(['custom_fields']);
    const one = obj(await api.get(`/v1/tickets/${t.a!}?fields=cf.tier`, { token: admin }));
    expect(one).to.deep.equal({ custom_fields: { tier: 'gold' } });
    const page = await api.get('/v1/tickets?cf.tier=gold&per_page=1&sort=id', { token: admin });
    expect(arr(page).map((x) => x.id)).to.deep.equal([t.a]);
    const next = linkRels(page.header('link')).next!;
    expect(next).to.contain('cf.tier=gold');
    expect(names(await api.get(pathOf(next), { token: admin }))).to.deep.equal(['c']);
  });

  it('no stale 304: a value change and a definition change each change the ETag', async () => {
    const path = `/v1/tickets/${t.b!}`;
    const first = await api.get(path, { token: admin });
    const etag = first.header('etag')!;
    expect((await api.get(path, { token: admin, headers: { 'If-None-Match': etag } })).status).to.equal(304);
    expect((await patchJson(api, path, { custom_fields: { seats: 4 } }, admin)).status).to.equal(200);
    const second = await api.get(path, { token: admin, headers: { 'If-None-Match': etag } });
    expect(second.status).to.equal(200);
    const fields = arr(await api.get('/v1/ticket_fields?per_page=100', { token: admin }));
    const vip = fields.find((f) => f.key === 'vip')!;
    expect((await api.request('DELETE', `/v1/ticket_fields/${String(vip.id)}`, { token: admin })).status).to.equal(200);
    const third = await api.get(path, { token: admin, headers: { 'If-None-Match': second.header('etag')! } });
    expect(third.status).to.equal(200);
    expect(obj(third).custom_fields).to.not.have.property('vip');
    const listed = await api.get('/v1/tickets?sort=id', { token: admin });
    expect(arr(listed).every((x) => !Object.hasOwn(x.custom_fields as Json, 'vip'))).to.equal(true);
  });
});
