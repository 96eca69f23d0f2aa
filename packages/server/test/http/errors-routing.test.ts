import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { expectError, streamedRequest, type CreatedTicket } from '../support/http-conventions.js';
import { errorsCast, type Person } from '../support/casts.js';

// Contract §6 (errors and limits): every failure is JSON {code, message, description} with
// code = status × 100 + n, whatever raised it: a convention, a route, the router, Node's
// HTTP parser, or a bug (5xx, which leak nothing).

const MiB = 1024 * 1024;

describe('HTTP errors: media types, malformed input, limits, routing, the error shape, 5xx', () => {
  let api: Api, admin: string, customer: Person & { email: string }, ticket: CreatedTicket;
  suiteCast(async () => ({ api, admin, customer, ticket } = await errorsCast()));

  describe('413 Payload Too Large', () => {
    it('a body over 1 MiB is 413, announced by Content-Length', async () => {
      const big = JSON.stringify({ subject: 'Big', summary: 'x'.repeat(MiB), customer_id: customer.id });
      expect(big.length).to.be.greaterThan(MiB);
      expectError(
        await api.post('/v1/tickets', big, { token: admin, headers: { 'Content-Type': 'application/json' } }),
        413,
        41301,
      );
    });

    it('a body over 1 MiB sent chunked, without Content-Length, is 413 as well', async () => {
      const chunk = Buffer.from(`"${'y'.repeat(64 * 1024 - 2)}",`);
      const chunks = [
        Buffer.from('{"subject":"Chunked","summary":['),
        ...Array.from({ length: 17 }, () => chunk),
        Buffer.from('"end"]}'),
      ];
      const a = await streamedRequest(api, 'POST', '/v1/tickets', chunks, {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${admin}`,
      });
      expect(a.status, a.text).to.equal(413);
      expect(JSON.parse(a.text)).to.include({ code: 41301 });
    });

    it('a body just under 1 MiB is read (and then judged by the rules: 422 for an over-long summary)', async () => {
      const prefix = `{"subject":"Almost","customer_id":${customer.id},"summary":"`;
      const body = `${prefix}${'z'.repeat(MiB - prefix.length - 2)}"}`;
      expect(Buffer.byteLength(body)).to.equal(MiB);
      const a = await api.post('/v1/tickets', body, { token: admin, headers: { 'Content-Type': 'application/json' } });
      const e = expectError(a, 422, 42200);
      expect((e.errors ?? []).map((f) => f.field)).to.deep.equal(['summary']);
    });
  });

  describe('404, 405, 406 and the router', () => {
    it('an unknown route is 404 in JSON, with or without a token', async () => {
      for (const path of ['/v1/nothing', '/nothing', '/v2/tickets', '/v1/tickets/1/nothing', '/']) {
        expectError(await api.get(path, { token: admin }), 404, 40401);
        expectError(await api.get(path), 404);
      }
    });

    it('paths are case-sensitive: /V1/TICKETS names nothing (404), so no rule keyed on the path (Idempotency-Key, the token endpoints) can be walked around', async () => {
      // Found while reading the fuzz's findings: the router matched /V1/TICKETS, the Idempotency-Key step (which looks for /v1/) did not, and a retried POST made a second ticket.
      for (const [method, path] of [
        ['GET', '/V1/TICKETS'],
        ['GET', '/v1/Tickets'],
        ['POST', '/V1/OAUTH/TOKEN'],
        ['GET', '/v1/USERS/me'],
      ] as const) {
        expectError(await api.request(method, path, { token: admin }), 404, 40401);
      }
      for (let i = 0; i < 2; i++) {
        const a = await api.request('POST', '/V1/TICKETS', {
          token: admin,
          body: { subject: 'Twice?' },
          headers: { 'Idempotency-Key': 'case-key' },
        });
        expectError(a, 404, 40401);
      }
    });

    it('a path id that is not a canonical positive integer is 404', async () => {
      for (const id of ['abc', '007', '-1', '0', '1.5'])
        expectError(await api.get(`/v1/tickets/${id}`, { token: admin }), 404);
    });

    it('a missing resource is 404 with its own code', async () => {
      const e = expectError(await api.get('/v1/tickets/999999', { token: admin }), 404, 40402);
      expect(e.description).to.include('999999');
    });

    it('a known path with another method is 405 with Allow, in JSON', async () => {
      const cases: [string, string, string[], string[]][] = [
        ['DELETE', '/v1/tickets', ['GET', 'POST'], ['DELETE', 'PUT']],
        ['POST', ticket.path, ['GET', 'PUT', 'PATCH', 'DELETE'], ['POST']],
        ['PUT', '/v1/deprecations', ['GET'], ['PUT', 'POST']],
        ['GET', '/v1/oauth/token', ['POST'], ['GET']],
      ];
      for (const [method, path, allowed, notAllowed] of cases) {
        const a = await api.request(method, path, {
          token: admin,
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        });
        const e = expectError(a, 405, 40501);
        const allow = (a.header('allow') ?? '').split(',').map((m) => m.trim());
        expect(allow, `${method} ${path}`).to.include.members(allowed);
        for (const m of notAllowed) expect(allow, `${method} ${path}`).not.to.include(m);
        expect(e.description).to.include(method);
      }
    });

    it('405 also without a token (the method is wrong whoever asks)', async () => {
      const a = await api.request('PATCH', '/v1/tickets');
      expectError(a, 405, 40501);
      expect(a.header('allow')).to.include('GET');
    });

    it('OPTIONS on a known path is 204 with Allow; on an unknown path it is 404 in JSON (was a 500)', async () => {
      const known = await api.request('OPTIONS', ticket.path, { token: admin });
      expect(known.status, known.text).to.equal(204);
      expect((known.header('allow') ?? '').split(',').map((m) => m.trim())).to.include.members([
        'GET',
        'PUT',
        'PATCH',
        'DELETE',
      ]);
      for (const path of ['/v1/nothing', '/']) {
        expectError(await api.request('OPTIONS', path, { token: admin }), 404, 40401);
        expectError(await api.request('OPTIONS', path), 404, 40401);
      }
    });

    it('every method but GET and HEAD on /v1/tickets/recently_closed is 405 with Allow: HEAD, GET (not a 404 for a ticket id, nor the methods of a ticket); OPTIONS says the same', async () => {
      // POST and TRACE were 405 with Allow: HEAD, GET, OPTIONS, PUT, PATCH, DELETE (the router's
      // union with /v1/tickets/:ticketId), offering methods that are 405 themselves.
      for (const method of ['PUT', 'PATCH', 'DELETE', 'POST', 'TRACE']) {
        for (const token of [admin, undefined]) {
          const a = await api.request(method, '/v1/tickets/recently_closed', {
            ...(token === undefined ? {} : { token }),
            ...(method === 'DELETE' || method === 'TRACE' ? {} : { body: {} }),
          });
          expectError(a, 405, 40501);
          expect(a.header('allow'), method).to.equal('HEAD, GET');
        }
      }
      expectError(await api.get('/v1/ticket/recently_closed', { token: admin }), 404);
      const options = await api.request('OPTIONS', '/v1/tickets/recently_closed', { token: admin });
      expect(options.status, options.text).to.equal(204);
      expect(options.header('allow')).to.equal('HEAD, GET');
    });

    it('a 404 for an unknown URL names the path as sent, its .json suffix included', async () => {
      // Was "there is no resource at /v1/openapi.json" for /v1/openapi.json.json (the suffix dropped).
      for (const path of ['/v1/openapi.json.json', '/v1/nothing.json']) {
        const e = expectError(await api.get(`${path}?pretty=false`, { token: admin }), 404, 40401);
        expect(e.description).to.equal(`there is no resource at ${path}; resources live under /v1`);
      }
    });

    it('.xml is 406, .json is the same resource', async () => {
      expectError(await api.get(`${ticket.path}.xml`, { token: admin }), 406, 40601);
      expect((await api.get(`${ticket.path}.json`, { token: admin })).json).to.include({ id: ticket.id });
    });
  });
});
