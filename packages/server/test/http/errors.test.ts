import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { expectError, type CreatedTicket } from '../support/http-conventions.js';
import { errorsCast, type Person } from '../support/casts.js';

// Contract §6 (errors and limits): every failure is JSON {code, message, description} with
// code = status × 100 + n, whatever raised it: a convention, a route, the router, Node's
// HTTP parser, or a bug (5xx, which leak nothing).

describe('HTTP errors: media types, malformed input, limits, routing, the error shape, 5xx', () => {
  let api: Api, admin: string, customer: Person & { email: string }, ticket: CreatedTicket, newTicket: () => string;
  suiteCast(async () => ({ api, admin, customer, ticket, newTicket } = await errorsCast()));

  const ticketCount = async (): Promise<number> =>
    Number((await api.get('/v1/tickets?per_page=1', { token: admin })).header('x-total-count'));

  describe('415 Unsupported Media Type', () => {
    it('a POST body without application/json is 415, and nothing is created', async () => {
      const before = await ticketCount();
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'application/merge-patch+json',
        'application/jsonx',
        'multipart/form-data; boundary=x',
      ]) {
        const a = await api.post('/v1/tickets', newTicket(), { token: admin, headers: { 'Content-Type': type } });
        expectError(a, 415, 41501);
      }
      expect(await ticketCount()).to.equal(before);
    });

    it('a body without any Content-Type is 415', async () => {
      const a = await api.post('/v1/tickets', newTicket(), { token: admin });
      expectError(a, 415, 41501);
    });

    it('application/json with parameters and in any letter case is accepted', async () => {
      for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
        const a = await api.post('/v1/tickets', newTicket(), { token: admin, headers: { 'Content-Type': type } });
        expect(a.status, `${type}: ${a.text}`).to.equal(201);
      }
    });

    it('a charset other than UTF-8 is 415 (the body would be read as UTF-8 and stored garbled); utf-8 in any spelling is accepted', async () => {
      const before = await ticketCount();
      for (const type of [
        'application/json; charset=iso-8859-1',
        'application/json; charset=utf-16',
        'application/json; charset="windows-1252"',
      ]) {
        const e = expectError(
          await api.post('/v1/tickets', newTicket(), { token: admin, headers: { 'Content-Type': type } }),
          415,
          41501,
        );
        expect(e.description, type).to.include('UTF-8');
      }
      const patch = await api.request('PATCH', ticket.path, {
        token: admin,
        body: '{"summary":"x"}',
        headers: { 'Content-Type': 'application/merge-patch+json; charset=us-ascii' },
      });
      expectError(patch, 415, 41501);
      const form = await api.post('/v1/oauth/token', 'grant_type=password&username=a%40b.c&password=x', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=latin1' },
      });
      expectError(form, 415, 41501);
      expect(await ticketCount()).to.equal(before);
      for (const type of [
        'application/json; charset=UTF-8',
        'application/json;charset="utf-8"',
        'application/json; charset=utf8',
      ]) {
        const a = await api.post('/v1/tickets', newTicket(), { token: admin, headers: { 'Content-Type': type } });
        expect(a.status, `${type}: ${a.text}`).to.equal(201);
      }
    });

    it('PATCH takes application/merge-patch+json as well as application/json', async () => {
      const mp = await api.request('PATCH', ticket.path, {
        token: admin,
        body: JSON.stringify({ priority: 'high' }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(mp.status, mp.text).to.equal(200);
      expect(mp.json).to.include({ priority: 'high' });
      // RFC 7396: null removes.
      const reset = await api.request('PATCH', ticket.path, {
        token: admin,
        body: JSON.stringify({ tags: ['a'] }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(reset.json).to.deep.include({ tags: ['a'] });
      const json = await api.request('PATCH', ticket.path, { token: admin, body: { priority: 'low' } });
      expect(json.status).to.equal(200);
      expectError(
        await api.request('PATCH', ticket.path, {
          token: admin,
          body: 'priority=low',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
        415,
        41501,
      );
    });

    it('PUT does not take merge-patch: 415, nothing changed', async () => {
      const before = await api.get(ticket.path, { token: admin });
      const a = await api.request('PUT', ticket.path, {
        token: admin,
        body: JSON.stringify({ subject: 'Put as merge patch', customer_id: customer.id }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expectError(a, 415, 41501);
      expect((await api.get(ticket.path, { token: admin })).header('etag')).to.equal(before.header('etag'));
    });

    it('messages and users follow the same rule', async () => {
      expectError(
        await api.post(`${ticket.path}/messages`, 'body=hi', {
          token: admin,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
        415,
        41501,
      );
      expectError(
        await api.post('/v1/users', '{}', { token: admin, headers: { 'Content-Type': 'text/plain' } }),
        415,
        41501,
      );
    });

    it('the token endpoint takes form encoding (RFC 6749) and JSON, nothing else', async () => {
      const form = `grant_type=password&username=${encodeURIComponent('admin@example.com')}&password=admin-password-1`;
      const a = await api.post('/v1/oauth/token', form, {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(a.status, a.text).to.equal(200);
      expect(a.json).to.include({ token_type: 'bearer' });
      const json = await api.post('/v1/oauth/token', {
        grant_type: 'password',
        username: 'admin@example.com',
        password: 'admin-password-1',
      });
      expect(json.status).to.equal(200);
      const text = await api.post('/v1/oauth/token', form, { headers: { 'Content-Type': 'text/plain' } });
      const body = expectError(text, 415, 41501);
      expect(text.json).to.include({ error: 'invalid_request' });
      expect(body.description).to.be.a('string');
    });
  });

  describe('400 Bad Request', () => {
    it('malformed JSON is 400 with the malformed-body code', async () => {
      for (const body of ['{"subject": ', '{subject: "x"}', "{'a': 1}", '[1, 2,]', '\u0000']) {
        const a = await api.post('/v1/tickets', body, {
          token: admin,
          headers: { 'Content-Type': 'application/json' },
        });
        expectError(a, 400, 40002);
      }
    });

    it('an empty JSON body is 400', async () => {
      expectError(
        await api.post('/v1/tickets', '', { token: admin, headers: { 'Content-Type': 'application/json' } }),
        400,
        40002,
      );
    });

    it('well-formed JSON that is not an object is a validation problem (422), not a parse error', async () => {
      const a = await api.post('/v1/tickets', '"just a string"', {
        token: admin,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(a.status).to.equal(422);
    });

    it('bad query parameters are 400 naming each one', async () => {
      const a = await api.get('/v1/tickets?sort=shoe_size&state=lost&per_page=1000&page=0&fields=nope&embed=wallet', {
        token: admin,
      });
      const body = expectError(a, 400, 40001);
      const fields = (body.errors ?? []).map((e) => e.field);
      expect(fields).to.include.members(['sort', 'state', 'per_page', 'page', 'fields', 'embed']);
      for (const e of body.errors ?? []) expect(e.code).to.equal(40001);
    });

    it('a malformed percent-encoding in a path or parameter is a JSON client error, never a 500', async () => {
      for (const path of ['/v1/tickets/%E0%A4%A', '/v1/%ZZtickets', '/v1/tickets/1/messages/%']) {
        const a = await api.get(path, { token: admin });
        expect([400, 404], `${path}: ${a.text}`).to.include(a.status);
        expectError(a, a.status);
      }
      const e = expectError(await api.get('/v1/tickets?state=%E0%A4%A', { token: admin }), 400, 40001);
      expect((e.errors ?? []).map((f) => f.field)).to.deep.equal(['state']);
    });
  });
});
