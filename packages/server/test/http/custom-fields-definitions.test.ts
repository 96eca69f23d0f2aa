import { expect } from 'chai';
import { suiteApi } from '../support/suite-api.js';
import { arr, createTicket, fieldErrors, obj, patchJson, type Json } from '../support/resources.js';

// Contract §10 over HTTPS: /v1/ticket_fields, the definitions. Who may read and write them,
// their limits and change rules (type and key fixed, an option in use 409 naming how many),
// deletion (values hidden at once, tickets untouched, a new field with the key starts
// empty), the feed's ticket_field.* events and the served document's custom_fields.

describe('HTTP: custom ticket fields, the definitions (contract §10)', () => {
  let admin: string;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Ada Agent');
    customer = await api.userWithToken('customer', 'Zoë Customer');
  });

  const define = async (body: Json): Promise<Json> => {
    const a = await api.post('/v1/ticket_fields', body, { token: admin });
    expect(a.status, a.text).to.equal(201);
    return obj(a);
  };

  it('admins define fields of every type; the answer is the definition, with Location', async () => {
    const d = await api.post(
      '/v1/ticket_fields',
      {
        key: 'plan_tier',
        title: 'Plan',
        type: 'dropdown',
        options: [{ value: 'free' }, { value: 'gold', title: 'Gold' }],
        customer_visible: true,
      },
      { token: admin },
    );
    expect(d.status, d.text).to.equal(201);
    const body = obj(d);
    expect(d.header('location')).to.equal(body.url);
    expect(body).to.include({
      key: 'plan_tier',
      type: 'dropdown',
      required: false,
      customer_visible: true,
      customer_editable: false,
      pattern: null,
    });
    expect(body.options).to.deep.equal([
      { value: 'free', title: 'free' },
      { value: 'gold', title: 'Gold' },
    ]);
    for (const [key, type, extra] of [
      ['order_no', 'regexp', { pattern: '^ORD-[0-9]{4}$' }],
      ['notes', 'textarea', {}],
      ['seats', 'integer', {}],
      ['amount', 'decimal', {}],
      ['renewal', 'date', {}],
      ['vip', 'checkbox', {}],
      ['areas', 'multiselect', { options: [{ value: 'api' }, { value: 'ui' }, { value: 'billing' }] }],
      ['reference', 'text', {}],
    ] as const)
      await define({ key, title: key, type, ...extra });
    const listed = await api.get('/v1/ticket_fields?per_page=100', { token: agent.token });
    expect(listed.status).to.equal(200);
    expect(arr(listed).map((f) => f.key)).to.include.members(['plan_tier', 'order_no', 'areas']);
  });

  it('refuses bad definitions with one 422 entry per field: key, type, options, pattern (RE2), editability', async () => {
    const bad = async (body: Json): Promise<string[]> =>
      fieldErrors(await api.post('/v1/ticket_fields', body, { token: admin })).map((e) => e.field);
    expect(await bad({ key: 'Bad-Key', title: 't', type: 'text' })).to.deep.equal(['key']);
    expect(await bad({ key: 'x'.repeat(65), title: 't', type: 'text' })).to.deep.equal(['key']);
    expect(await bad({ key: 'plan_tier', title: 't', type: 'text' })).to.deep.equal(['key']);
    expect(await bad({ key: 'k1', title: 't', type: 'colour' })).to.deep.equal(['type']);
    expect(await bad({ key: 'k2', title: 't', type: 'dropdown' })).to.deep.equal(['options']);
    expect(await bad({ key: 'k3', title: 't', type: 'text', options: [{ value: 'a' }] })).to.deep.equal(['options']);
    expect(await bad({ key: 'k4', title: 't', type: 'regexp', pattern: '(a' })).to.deep.equal(['pattern']);
    // A lookbehind is not RE2: refused, not run by a backtracking engine.
    expect(await bad({ key: 'k5', title: 't', type: 'regexp', pattern: '(?<=a)b' })).to.deep.equal(['pattern']);
    expect(await bad({ key: 'k6', title: 't', type: 'regexp' })).to.deep.equal(['pattern']);
    expect(await bad({ key: 'k7', title: 't', type: 'text', customer_editable: true })).to.deep.equal([
      'customer_editable',
    ]);
    const many = Array.from({ length: 501 }, (_, i) => ({ value: `v${i}` }));
    expect(await bad({ key: 'k8', title: 't', type: 'dropdown', options: many })).to.deep.equal(['options']);
    expect(
      await bad({ key: 'k9', title: 't', type: 'dropdown', options: [{ value: 'a' }, { value: 'a' }] }),
    ).to.deep.equal(['options.1.value']);
    // The document types an option's title as a string: null is refused, a title left out is the value.
    expect(
      await bad({ key: 'k10', title: 't', type: 'dropdown', options: [{ value: 'a' }, { value: 'b', title: null }] }),
    ).to.deep.equal(['options.1.title']);
  });

  it('agents and customers may not define fields (403); customers see only customer_visible ones', async () => {
    for (const token of [agent.token, customer.token])
      expect(
        (await api.post('/v1/ticket_fields', { key: 'nope', title: 't', type: 'text' }, { token })).status,
      ).to.equal(403);
    const seen = arr(await api.get('/v1/ticket_fields?per_page=100', { token: customer.token })).map((f) => f.key);
    expect(seen).to.deep.equal(['plan_tier']);
    const hidden = arr(await api.get('/v1/ticket_fields?per_page=100', { token: admin })).find(
      (f) => f.key === 'notes',
    );
    expect((await api.get(`/v1/ticket_fields/${String(hidden?.id)}`, { token: customer.token })).status).to.equal(404);
    expect((await api.get(`/v1/ticket_fields/${String(hidden?.id)}`, { token: agent.token })).status).to.equal(200);
  });

  it('type, key and pattern are fixed (422); removing an option a ticket holds is 409 naming how many', async () => {
    const plan = arr(await api.get('/v1/ticket_fields?per_page=100', { token: admin })).find(
      (f) => f.key === 'plan_tier',
    )!;
    const path = `/v1/ticket_fields/${String(plan.id)}`;
    expect(fieldErrors(await patchJson(api, path, { type: 'text' }, admin)).map((e) => e.field)).to.deep.equal([
      'type',
    ]);
    expect(fieldErrors(await patchJson(api, path, { key: 'tier' }, admin)).map((e) => e.field)).to.deep.equal(['key']);
    for (let i = 0; i < 2; i++)
      await createTicket(api, admin, { customer_id: customer.id, custom_fields: { plan_tier: 'gold' } } as Json);
    const removal = await patchJson(api, path, { options: [{ value: 'free' }] }, admin);
    expect(removal.status, removal.text).to.equal(409);
    expect(obj(removal).description ?? obj(removal).message).to.match(/\b2 tickets\b/);
    const added = await patchJson(
      api,
      path,
      { title: 'Plan tier', options: [{ value: 'free' }, { value: 'gold' }, { value: 'platinum' }] },
      admin,
    );
    expect(added.status, added.text).to.equal(200);
    expect((obj(added).options as Json[]).map((o) => o.value)).to.deep.equal(['free', 'gold', 'platinum']);
  });

  it('a deleted field leaves every representation at once, the tickets untouched; its key defined again starts empty', async () => {
    const seats = await define({ key: 'licences', title: 'Licences', type: 'integer' });
    const t = await createTicket(api, admin, { customer_id: customer.id, custom_fields: { licences: 12 } } as Json);
    const before = obj(await api.get(`/v1/tickets/${String(t.id)}`, { token: admin }));
    expect((before.custom_fields as Json).licences).to.equal(12);
    const newest = (await api.get('/v1/events?after=0&per_page=100', { token: admin })).json as Json[];
    const gone = await api.request('DELETE', `/v1/ticket_fields/${String(seats.id)}`, { token: admin });
    expect(gone.status, gone.text).to.equal(200);
    const after = obj(await api.get(`/v1/tickets/${String(t.id)}`, { token: admin }));
    expect(after.custom_fields).to.not.have.property('licences');
    expect(after.updated_at).to.equal(before.updated_at);
    const events = (await api.get(`/v1/events?after=${Number(newest.at(-1)?.seq ?? 0)}&per_page=100`, { token: admin }))
      .json as Json[];
    expect(events.map((e) => e.type)).to.deep.equal(['ticket_field.deleted']);
    expect((await api.get('/v1/tickets?cf.licences=12', { token: admin })).status).to.equal(400);
    await define({ key: 'licences', title: 'Licences', type: 'integer' });
    const again = obj(await api.get(`/v1/tickets/${String(t.id)}`, { token: admin }));
    expect((again.custom_fields as Json).licences).to.equal(null);
    expect(arr(await api.get('/v1/tickets?cf.licences=12', { token: admin }))).to.deep.equal([]);
  });

  it('definitions append ticket_field.created|updated|deleted to the feed', async () => {
    const all = (await api.get('/v1/events?after=0&per_page=100', { token: admin })).json as Json[];
    const types = all.map((e) => e.type);
    for (const type of ['ticket_field.created', 'ticket_field.updated', 'ticket_field.deleted'])
      expect(types).to.include(type);
    const created = all.find((e) => e.type === 'ticket_field.created')!;
    expect(created.resource).to.deep.include({ type: 'ticket_field' });
    expect((created.data as Json).key).to.equal('plan_tier');
  });

  it('the served document describes custom_fields with the fields defined now; its ETag changes with them', async () => {
    const doc = await api.get('/v1/openapi.json');
    const schemas = (obj(doc).components as Json).schemas as Record<string, Json>;
    const props = schemas.CustomFields!.properties as Record<string, Json>;
    expect(props.plan_tier!.enum).to.deep.equal(['free', 'gold', 'platinum', null]);
    expect(props.order_no!.pattern).to.equal('^ORD-[0-9]{4}$');
    expect(props.seats!.type).to.deep.equal(['integer', 'null']);
    await define({ key: 'region', title: 'Region', type: 'dropdown', options: [{ value: 'eu' }, { value: 'us' }] });
    const later = await api.get('/v1/openapi.json');
    expect(later.header('etag')).to.not.equal(doc.header('etag'));
    const laterProps = ((obj(later).components as Json).schemas as Record<string, Json>).CustomFields!
      .properties as Record<string, Json>;
    expect(laterProps.region!.enum).to.deep.equal(['eu', 'us', null]);
  });
});
