import { StoreTimeLimitError, StoreUnavailableError, StoreWriteNotConfirmedError } from '@support/application';
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { expectError, expectNoStack, rawTlsExchange, type CreatedTicket } from '../support/http-conventions.js';
import { errorsCast, type Person } from '../support/casts.js';

// Contract §6 (errors and limits): every failure is JSON {code, message, description} with
// code = status × 100 + n, whatever raised it: a convention, a route, the router, Node's
// HTTP parser, or a bug (5xx, which leak nothing).

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
  let api: Api, admin: string, customer: Person & { email: string }, ticket: CreatedTicket, newTicket: () => string;
  suiteCast(async () => ({ api, admin, customer, ticket, newTicket } = await errorsCast()));

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

    it('a link written as its object is refused naming the field to write instead (customer: customer_id)', async () => {
      // Was "customer is set by the server and cannot be written here", though customer_id writes it.
      const a = await api.post(
        '/v1/tickets',
        { subject: 'Links', customer: { id: customer.id }, assigned_user: null, group: null, id: 5 },
        { token: admin },
      );
      const byField = new Map((expectError(a, 422, 42200).errors ?? []).map((f) => [f.field, f]));
      for (const [field, written] of [
        ['customer', 'customer_id'],
        ['assigned_user', 'assigned_user_id'],
        ['group', 'group_id'],
      ] as const) {
        expect(byField.get(field)).to.deep.equal({
          code: 42203,
          field,
          message: `is read-only: write ${written} instead`,
        });
      }
      expect(byField.get('id')?.message).to.equal('is set by the server and cannot be written here');
      const user = await api.post(
        '/v1/users',
        { name: 'Links', email: 'links@example.com', role: 'agent', password: 'long enough', groups: [] },
        { token: admin },
      );
      const groups = (expectError(user, 422, 42200).errors ?? []).find((f) => f.field === 'groups');
      expect(groups?.message).to.equal('is read-only: write group_ids instead');
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

    it('an HTTP/1.1 request without a Host header field, or with two: 400 in JSON (RFC 9112 §3.2)', async () => {
      // Without Host, Node itself answered 400 with an empty body: no JSON, no X-Request-Id.
      for (const hosts of ['', 'Host: localhost\r\nHost: other.example\r\n']) {
        const response = await rawTlsExchange(api, `GET /v1/tickets HTTP/1.1\r\n${hosts}Connection: close\r\n\r\n`);
        const [head = '', body = ''] = response.split('\r\n\r\n');
        expect(head, hosts).to.match(/^HTTP\/1\.1 400 /);
        expect(head.toLowerCase()).to.include('content-type: application/json');
        expect(head.toLowerCase()).to.match(/x-request-id: \S+/);
        const json = JSON.parse(body) as { code: number; description: string };
        expect(json.code).to.equal(40006);
        expect(json.description).to.include('Host');
      }
      // HTTP/1.0 has no Host requirement: answered as usual.
      const old = await rawTlsExchange(api, 'GET /healthz HTTP/1.0\r\n\r\n');
      expect(old).to.match(/^HTTP\/1\.1 200 /);
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
