import { defaultOpenApiDocument } from '@support/adapter-http-koa';
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { createTicket, fieldErrors, isoMillis, obj, patchJson, pathOf } from '../support/resources.js';
import { ticketsCast, type Person } from '../support/casts.js';

const ticketSchema = (defaultOpenApiDocument().components as { schemas: Record<string, { required: string[] }> })
  .schemas.Ticket as { required: string[] };

describe('HTTP: tickets (representation, create, read, PUT, PATCH, DELETE, states, embed, fields)', () => {
  let api: Api, admin: string, agent: Person, customer: Person, other: Person;
  suiteCast(async () => ({ api, admin, agent, customer, other } = await ticketsCast()));

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
      // The contract's fields, and exactly the fields the document's Ticket requires (more as fields are added).
      expect(Object.keys(t)).to.include.members([
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
        'custom_fields',
      ]);
      expect(Object.keys(t)).to.have.members(ticketSchema.required);
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
});
