import { apiVersions, defaultDeprecations } from '@support/adapter-http-koa';
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { createTicket, expectError, imfFixdate, type CreatedTicket } from '../support/http-conventions.js';
import { conventionsCast, type Person } from '../support/casts.js';

// Contract §2, §5 (presentation) and §6 (request ids, method override): conventions every
// answer follows, checked over real HTTPS.

describe('HTTP conventions: presentation, versions, aliases, method override, request ids', () => {
  let api: Api, admin: string, customer: Person, ticket: CreatedTicket;
  suiteCast(async () => ({ api, admin, customer, ticket } = await conventionsCast()));

  describe('X-Api-Version', () => {
    it('serves the newest minor version when none is asked for, and says so', async () => {
      const a = await api.get(ticket.path, { token: admin });
      expect(a.header('x-api-version')).to.equal(apiVersions.current);
      expect(apiVersions.supported).to.include(apiVersions.current);
      expect(apiVersions.current).to.match(/^1\.\d+$/);
    });

    it('echoes every supported version asked for', async () => {
      for (const v of apiVersions.supported) {
        const a = await api.get(ticket.path, { token: admin, headers: { 'X-Api-Version': v } });
        expect(a.status, v).to.equal(200);
        expect(a.header('x-api-version')).to.equal(v);
      }
    });

    it('refuses an unknown version with 400 and still names the version served', async () => {
      // Sent empty or blank: no known version either (not read as absent).
      for (const v of ['9.9', '2', 'latest', '1.0.0', '', ' ']) {
        const a = await api.get(ticket.path, { token: admin, headers: { 'X-Api-Version': v } });
        expectError(a, 400, 40003);
        expect(a.header('x-api-version')).to.equal(apiVersions.current);
      }
    });

    it('names the version on errors and on unauthenticated answers too', async () => {
      const a = await api.get('/v1/nowhere', { headers: { 'X-Api-Version': '1.0' } });
      expect(a.status).to.equal(404);
      expect(a.header('x-api-version')).to.equal('1.0');
    });
  });

  describe('X-HTTP-Method-Override', () => {
    it('turns a POST into a PATCH', async () => {
      const t = await createTicket(api, admin, customer.id);
      const a = await api.post(
        t.path,
        { priority: 'urgent' },
        { token: admin, headers: { 'X-HTTP-Method-Override': 'PATCH' } },
      );
      expect(a.status, a.text).to.equal(200);
      expect(a.json).to.include({ id: t.id, priority: 'urgent', subject: t.json.subject });
      const read = await api.get(t.path, { token: admin });
      expect(read.json).to.include({ priority: 'urgent' });
    });

    it('turns a POST into a PUT and into a DELETE (case-insensitively)', async () => {
      const t = await createTicket(api, admin, customer.id, { priority: 'high' });
      const put = await api.post(
        t.path,
        { subject: 'Replaced', customer_id: customer.id },
        { token: admin, headers: { 'X-HTTP-Method-Override': 'put' } },
      );
      expect(put.status, put.text).to.equal(200);
      // PUT resets omitted fields: proof it was a PUT, not a PATCH.
      expect(put.json).to.include({ subject: 'Replaced', priority: 'normal' });
      const del = await api.request('POST', t.path, { token: admin, headers: { 'X-HTTP-Method-Override': 'DELETE' } });
      expect(del.status, del.text).to.equal(200);
      expectError(await api.get(t.path, { token: admin }), 410, 41001);
    });

    it('an override to a method the route does not have is 405 with Allow', async () => {
      const a = await api.post(
        '/v1/tickets',
        { subject: 'x', customer_id: customer.id },
        { token: admin, headers: { 'X-HTTP-Method-Override': 'DELETE' } },
      );
      expectError(a, 405, 40501);
      expect(a.header('allow')).to.include('POST');
    });

    it('is ignored on GET: a GET stays a read and changes nothing', async () => {
      const t = await createTicket(api, admin, customer.id);
      const a = await api.get(t.path, { token: admin, headers: { 'X-HTTP-Method-Override': 'DELETE' } });
      expect(a.status).to.equal(200);
      expect(a.json).to.include({ id: t.id });
      const again = await api.get(t.path, { token: admin });
      expect(again.status).to.equal(200);
      expect(again.header('etag')).to.equal(a.header('etag'));
    });

    it('refuses an override to a method other than PUT, PATCH or DELETE: 400, nothing created', async () => {
      const before = await api.get('/v1/tickets', { token: admin });
      for (const m of ['GET', 'TRACE', 'CONNECT', 'POST', 'bogus']) {
        const a = await api.post(
          '/v1/tickets',
          { subject: 'Should not exist', customer_id: customer.id },
          { token: admin, headers: { 'X-HTTP-Method-Override': m } },
        );
        expectError(a, 400, 40004);
      }
      const after = await api.get('/v1/tickets', { token: admin });
      expect(after.header('x-total-count')).to.equal(before.header('x-total-count'));
    });
  });

  describe('.json suffix, the singular alias and the deprecation schedule', () => {
    it('accepts a .json suffix on resource URLs', async () => {
      const plain = await api.get(ticket.path, { token: admin });
      const suffixed = await api.get(`${ticket.path}.json`, { token: admin });
      expect(suffixed.status).to.equal(200);
      expect(suffixed.json).to.deep.equal(plain.json);
      expect(suffixed.header('etag')).to.equal(plain.header('etag'));
      const list = await api.get('/v1/tickets.json?per_page=1', { token: admin });
      expect(list.status).to.equal(200);
      expect(list.json).to.be.an('array').with.lengthOf(1);
    });

    it('accepts .json on sub-resources and on the singular alias', async () => {
      expect((await api.post(`${ticket.path}/messages`, { body: 'Hello' }, { token: admin })).status).to.equal(201);
      const messages = await api.get(`${ticket.path}/messages.json`, { token: admin });
      expect(messages.status).to.equal(200);
      expect(messages.json).to.be.an('array').that.is.not.empty;
      const message = await api.get(`${ticket.path}/messages/1.json`, { token: admin });
      expect(message.json).to.include({ id: 1, body: 'Hello' });
      const alias = await api.get(`/v1/ticket/${ticket.id}.json`, { token: admin });
      expect(alias.status).to.equal(200);
      expect(alias.header('deprecation')).to.match(/^@\d+$/);
    });

    it('does not offer XML: 406 in JSON', async () => {
      expectError(await api.get(`${ticket.path}.xml`, { token: admin }), 406, 40601);
      expectError(await api.get('/v1/tickets.xml', { token: admin }), 406, 40601);
    });

    it('answers GET /v1/ticket/{id} like /v1/tickets/{id}, plus Deprecation, Sunset and Link rel="deprecation"', async () => {
      const plural = await api.get(ticket.path, { token: admin });
      const singular = await api.get(`/v1/ticket/${ticket.id}`, { token: admin });
      expect(singular.status).to.equal(200);
      expect(singular.json).to.deep.equal(plural.json);
      expect(singular.header('etag')).to.equal(plural.header('etag'));
      expect(singular.header('last-modified')).to.equal(plural.header('last-modified'));
      expect(singular.header('deprecation')).to.match(/^@\d+$/);
      expect(singular.header('sunset')).to.match(imfFixdate);
      expect(singular.header('link')).to.match(/<https:\/\/[^>]+>; rel="deprecation"/);
      for (const name of ['deprecation', 'sunset']) expect(plural.header(name), name).to.equal(undefined);
      expect(plural.header('link') ?? '').not.to.include('deprecation');
    });

    it('the alias takes embed and fields like the plural URL', async () => {
      const path = `?embed=customer.name&fields=id,customer,subject`;
      const plural = await api.get(`${ticket.path}${path}`, { token: admin });
      const singular = await api.get(`/v1/ticket/${ticket.id}${path}`, { token: admin });
      expect(singular.status).to.equal(200);
      expect(singular.json).to.deep.equal(plural.json);
      expect(singular.json).to.deep.include({
        customer: { id: customer.id, url: `${api.origin}/v1/users/${customer.id}`, name: 'Grace Hopper' },
      });
    });

    it('the alias answers errors like the plural URL, with the deprecation headers', async () => {
      const a = await api.get('/v1/ticket/999999', { token: admin });
      expectError(a, 404, 40402);
      expect(a.header('deprecation')).to.match(/^@\d+$/);
    });

    it('GET /v1/deprecations publishes the same dates and link the alias sends', async () => {
      const singular = await api.get(`/v1/ticket/${ticket.id}`, { token: admin });
      const schedule = await api.get('/v1/deprecations');
      expect(schedule.status).to.equal(200);
      const entries = schedule.json as {
        id: string;
        deprecated_at: string;
        sunset_at: string;
        url: string;
        description: string;
        replacement: string;
      }[];
      expect(entries).to.have.lengthOf(defaultDeprecations.length);
      const alias = entries.find((e) => e.description.includes('/v1/ticket/'));
      expect(alias, schedule.text).not.to.equal(undefined);
      if (alias === undefined) return;
      expect(singular.header('deprecation')).to.equal(`@${Date.parse(alias.deprecated_at) / 1000}`);
      expect(singular.header('sunset')).to.equal(new Date(alias.sunset_at).toUTCString());
      expect(Date.parse(alias.sunset_at)).to.be.greaterThan(Date.parse(alias.deprecated_at));
      expect(singular.header('link')).to.include(`<${alias.url}>; rel="deprecation"`);
      expect(alias.url.startsWith(`${api.origin}/v1/deprecations`)).to.equal(true);
      expect(alias.replacement).to.include('/v1/tickets/');
    });
  });

  describe('X-Request-Id', () => {
    it('is on every answer, new and distinct when the client sends none', async () => {
      const answers = await Promise.all([
        api.get(ticket.path, { token: admin }),
        api.get('/v1/nowhere'),
        api.get(ticket.path),
        api.post('/v1/tickets', 'not json', { token: admin, headers: { 'Content-Type': 'application/json' } }),
        api.get('/healthz'),
      ]);
      const ids = answers.map((a) => a.header('x-request-id') ?? '');
      for (const id of ids) expect(id).to.match(/^[A-Za-z0-9._-]{1,128}$/);
      expect(new Set(ids).size).to.equal(ids.length);
    });

    it("echoes the client's id when it is 1-128 characters of [A-Za-z0-9._-]", async () => {
      for (const id of ['abc-123_X.y', 'a', 'z'.repeat(128)]) {
        const a = await api.get(ticket.path, { token: admin, headers: { 'X-Request-Id': id } });
        expect(a.header('x-request-id')).to.equal(id);
      }
      const err = await api.get('/v1/nowhere', { headers: { 'X-Request-Id': 'trace-404' } });
      expect(err.status).to.equal(404);
      expect(err.header('x-request-id')).to.equal('trace-404');
    });

    it('replaces an unusable client id with a new one', async () => {
      for (const id of ['has space', 'x'.repeat(129), 'semi;colon', 'per%cent', 'slash/x', 'quote"d']) {
        const a = await api.get(ticket.path, { token: admin, headers: { 'X-Request-Id': id } });
        expect(a.status).to.equal(200);
        const got = a.header('x-request-id') ?? '';
        expect(got).not.to.equal(id);
        expect(got).to.match(/^[A-Za-z0-9._-]{1,128}$/);
      }
    });
  });
});
