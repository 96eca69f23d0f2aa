import { StoreTimeLimitError, StoreUnavailableError, StoreWriteNotConfirmedError } from '@support/application';
import { expect } from 'chai';
import { startApi, type Api } from '../support/harness.js';
import {
  createTicket,
  expectError,
  expectNoStack,
  rawTlsExchange,
  streamedRequest,
  type CreatedTicket,
} from '../support/http-conventions.js';

// Contract §6 (errors and limits): every failure is JSON {code, message, description} with
// code = status × 100 + n, whatever raised it: a convention, a route, the router, Node's
// HTTP parser, or a bug (5xx, which leak nothing).

const MiB = 1024 * 1024;

/** Runs `body` with `target[name]` replaced (a use case made to fail), then puts the original back. */
const replacing = async (
  target: object,
  name: string,
  replacement: unknown,
  body: () => Promise<void>,
): Promise<void> => {
  const original: unknown = Reflect.get(target, name);
  Reflect.set(target, name, replacement);
  try {
    await body();
  } finally {
    Reflect.set(target, name, original);
  }
};

describe('HTTP errors: media types, malformed input, limits, routing, the error shape, 5xx', () => {
  let api: Api;
  let admin: string;
  let customer: { id: number; email: string; token: string };
  let ticket: CreatedTicket;
  const newTicket = (): string => JSON.stringify({ subject: 'Media types', customer_id: customer.id });

  before(async () => {
    api = await startApi();
    admin = await api.adminToken();
    customer = await api.userWithToken('customer', 'Edsger Dijkstra');
    ticket = await createTicket(api, admin, customer.id);
  });
  after(async () => {
    await api.close();
  });

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

    it('PUT, PATCH and DELETE on /v1/tickets/recently_closed are 405 with Allow: HEAD, GET (not a 404 for a ticket id); OPTIONS says the same', async () => {
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        const a = await api.request(method, '/v1/tickets/recently_closed', {
          token: admin,
          ...(method === 'DELETE' ? {} : { body: {} }),
        });
        expectError(a, 405, 40501);
        expect(a.header('allow')).to.equal('HEAD, GET');
      }
      expectError(await api.get('/v1/ticket/recently_closed', { token: admin }), 404);
      const options = await api.request('OPTIONS', '/v1/tickets/recently_closed', { token: admin });
      expect(options.status, options.text).to.equal(204);
      expect(options.header('allow')).to.equal('HEAD, GET');
    });

    it('.xml is 406, .json is the same resource', async () => {
      expectError(await api.get(`${ticket.path}.xml`, { token: admin }), 406, 40601);
      expect((await api.get(`${ticket.path}.json`, { token: admin })).json).to.include({ id: ticket.id });
    });
  });

  describe('the error shape and the code numbering', () => {
    it('every error kind follows {code, message, description} with code = status × 100 + n', async () => {
      const answers = [
        await api.get('/v1/tickets?sort=bogus', { token: admin }),
        await api.get(ticket.path),
        await api.get(ticket.path, { token: 'not-a-token' }),
        await api.request('DELETE', ticket.path, { token: customer.token }),
        await api.get('/v1/nowhere'),
        await api.request('DELETE', '/v1/tickets', { token: admin }),
        await api.get(`${ticket.path}.xml`, { token: admin }),
        await api.post('/v1/tickets', 'x', { token: admin, headers: { 'Content-Type': 'text/plain' } }),
        await api.request('PATCH', ticket.path, { token: admin, body: { state: 'nonsense' } }),
      ];
      expect(answers.map((a) => a.status)).to.deep.equal([400, 401, 401, 403, 404, 405, 406, 415, 422]);
      const codes = answers.map((a) => expectError(a, a.status).code);
      expect(codes).to.deep.equal([40001, 40101, 40102, 40301, 40401, 40501, 40601, 41501, 42200]);
    });

    it('401 carries WWW-Authenticate: Bearer realm="support"', async () => {
      const a = await api.get(ticket.path);
      expectError(a, 401, 40101);
      expect(a.header('www-authenticate')).to.match(/^Bearer realm="support"/);
    });

    it('a validation failure lists one entry per field: {code, field, message}, codes 422nn', async () => {
      const a = await api.post(
        '/v1/tickets',
        { subject: '', priority: 'extreme', id: 5, shoe_size: 44, customer_id: customer.id },
        { token: admin },
      );
      const e = expectError(a, 422, 42200);
      const byField = new Map((e.errors ?? []).map((f) => [f.field, f.code]));
      expect([...byField.keys()]).to.include.members(['subject', 'priority', 'id', 'shoe_size']);
      for (const code of byField.values()) expect(Math.floor(code / 100)).to.equal(422);
      expect(byField.get('shoe_size')).to.equal(42202);
      expect(byField.get('id')).to.equal(42203);
    });
  });

  describe('5xx answers are JSON and leak nothing', () => {
    it('a bug in a use case is 500 JSON naming no stack, message or file', async () => {
      const failing = (): Promise<never> =>
        Promise.reject(new TypeError('secret internal detail at /work/main/packages/application/src/x.ts:12:3'));
      await replacing(api.server.app.tickets, 'get', failing, async () => {
        for (const query of ['', '?pretty=false']) {
          const a = await api.get(`${ticket.path}${query}`, {
            token: admin,
            headers: { 'X-Request-Id': 'bug-report-1' },
          });
          const e = expectError(a, 500, 50001);
          expect(a.text).not.to.include('secret');
          expect(a.text).not.to.include('TypeError');
          expect(a.header('x-request-id')).to.equal('bug-report-1');
          expect(e.description).to.be.a('string');
        }
        // Enveloped like any other answer.
        const env = await api.get(`${ticket.path}?envelope=true`, { token: admin });
        expect(env.status).to.equal(200);
        expect(env.json).to.deep.include({ status_code: 500 });
        expectNoStack(env);
      });
      expect((await api.get(ticket.path, { token: admin })).status).to.equal(200);
    });

    it('a thrown non-Error is 500 JSON too', async () => {
      const throwing = (): never => {
        // Deliberately not an Error: what a careless dependency may throw.
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw 'raw string thrown';
      };
      await replacing(api.server.app.tickets, 'list', throwing, async () => {
        const a = await api.get('/v1/tickets', { token: admin });
        expectError(a, 500, 50001);
        expect(a.text).not.to.include('raw string');
      });
    });

    it('a store outage is 503 with Retry-After, JSON', async () => {
      const outage = (): Promise<never> =>
        Promise.reject(new StoreUnavailableError('connection refused to mongodb://10.0.0.1:27017'));
      await replacing(api.server.app.tickets, 'get', outage, async () => {
        const a = await api.get(ticket.path, { token: admin });
        expectError(a, 503, 50301);
        expect(Number(a.header('retry-after'))).to.be.greaterThan(0);
        expect(a.text).not.to.include('mongodb');
      });
    });

    it('a write the store could not confirm is 500 code 50002, saying it may have been applied, without Retry-After', async () => {
      const unconfirmed = (): Promise<never> =>
        Promise.reject(new StoreWriteNotConfirmedError('waiting for replication timed out (mongodb wtimeout)'));
      await replacing(api.server.app.tickets, 'create', unconfirmed, async () => {
        const a = await api.post('/v1/tickets', newTicket(), {
          token: admin,
          headers: { 'Content-Type': 'application/json' },
        });
        const body = expectError(a, 500, 50002);
        expect(body.description).to.include('may have been applied').and.to.include('Idempotency-Key');
        expect(a.header('retry-after')).to.equal(undefined);
        expect(a.text).not.to.match(/mongo|replication/i);
      });
    });

    it('a request the store stopped at its time limit is 500 code 50003, not 503 (retrying would meet the limit again)', async () => {
      const stopped = (): Promise<never> =>
        Promise.reject(new StoreTimeLimitError('operation exceeded time limit (mongodb code 50)'));
      await replacing(api.server.app.tickets, 'list', stopped, async () => {
        const a = await api.get('/v1/tickets?q=printer', { token: admin });
        expectError(a, 500, 50003);
        expect(a.header('retry-after')).to.equal(undefined);
        expect(a.text).not.to.match(/mongo|code 50/i);
      });
    });
  });

  describe('errors Node raises before routing', () => {
    it('header fields over 16 KiB: 431 in JSON', async () => {
      const a = await api.get(ticket.path, { token: admin, headers: { 'X-Padding': 'p'.repeat(17 * 1024) } });
      expectError(a, 431, 43101);
    });

    it('a malformed request line: 400 in JSON', async () => {
      const response = await rawTlsExchange(api, 'GET /v1/tickets HTTP/1.1 extra\r\nHost: localhost\r\n\r\n');
      const [head = '', body = ''] = response.split('\r\n\r\n');
      expect(head).to.match(/^HTTP\/1\.1 400 /);
      expect(head.toLowerCase()).to.include('content-type: application/json');
      expect(head.toLowerCase()).to.match(/x-request-id: \S+/);
      const json = JSON.parse(body) as { code: number; message: string; description: string };
      expect(json.code).to.equal(40006);
      expect(json.description).to.be.a('string');
    });

    it('CONNECT: 501 in JSON (Node alone would close the connection without an answer)', async () => {
      // Found by the fuzz (test/fuzz): CONNECT /v1/tickets got "socket hang up", no answer at all.
      const response = await rawTlsExchange(api, 'CONNECT /v1/tickets HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const [head = '', body = ''] = response.split('\r\n\r\n');
      expect(head).to.match(/^HTTP\/1\.1 501 /);
      expect(head.toLowerCase()).to.include('content-type: application/json');
      expect(head.toLowerCase()).to.match(/x-request-id: \S+/);
      expect((JSON.parse(body) as { code: number }).code).to.equal(50101);
    });
  });
});
