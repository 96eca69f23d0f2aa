import { expect } from 'chai';
import type { Answer, Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { createTicket, expectError, type CreatedTicket } from '../support/http-conventions.js';
import { cachingCast, type Person } from '../support/casts.js';
import { etagOf } from '../support/caching-checks.js';

// Contract §6 (caching): strong ETags from content, If-None-Match and If-Modified-Since
// (all three HTTP date forms) -> 304 without a body, If-Match -> 412 with nothing stored,
// Vary and Cache-Control on every answer.

describe('HTTP caching: ETag, Last-Modified, conditional requests, Cache-Control and Vary', () => {
  let api: Api, admin: string, customer: Person, ticket: CreatedTicket;
  suiteCast(async () => ({ api, admin, customer, ticket } = await cachingCast()));

  describe('If-Match on writes (lost-update protection)', () => {
    const stale = '"stale-etag"';

    const expectUnchanged = async (t: CreatedTicket, etag: string): Promise<void> => {
      const now = await api.get(t.path, { token: admin });
      expect(now.status).to.equal(200);
      expect(etagOf(now)).to.equal(etag);
    };

    it('PUT with an ETag that no longer matches: 412, nothing stored', async () => {
      const t = await createTicket(api, admin, customer.id);
      const etag = etagOf(await api.get(t.path, { token: admin }));
      const a = await api.request('PUT', t.path, {
        token: admin,
        headers: { 'If-Match': stale },
        body: { subject: 'Lost update', customer_id: customer.id },
      });
      expectError(a, 412, 41201);
      await expectUnchanged(t, etag);
    });

    it('PATCH with an ETag that no longer matches: 412, nothing stored (also for merge-patch)', async () => {
      const t = await createTicket(api, admin, customer.id);
      const etag = etagOf(await api.get(t.path, { token: admin }));
      expectError(
        await api.request('PATCH', t.path, { token: admin, headers: { 'If-Match': stale }, body: { subject: 'Lost' } }),
        412,
        41201,
      );
      const mp = await api.request('PATCH', t.path, {
        token: admin,
        headers: { 'If-Match': stale, 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ subject: 'Lost' }),
      });
      expectError(mp, 412, 41201);
      await expectUnchanged(t, etag);
    });

    it('DELETE with an ETag that no longer matches: 412, the ticket stays', async () => {
      const t = await createTicket(api, admin, customer.id);
      const etag = etagOf(await api.get(t.path, { token: admin }));
      expectError(await api.request('DELETE', t.path, { token: admin, headers: { 'If-Match': stale } }), 412, 41201);
      await expectUnchanged(t, etag);
    });

    it('the ETag read before someone else wrote is refused: the real lost-update case', async () => {
      const t = await createTicket(api, admin, customer.id);
      const read = etagOf(await api.get(t.path, { token: admin }));
      api.clock.advance(1_000);
      const other = await api.request('PATCH', t.path, {
        token: customer.token,
        body: { summary: 'customer wrote first' },
      });
      expect(other.status, other.text).to.equal(200);
      const mine = await api.request('PATCH', t.path, {
        token: admin,
        headers: { 'If-Match': read },
        body: { summary: 'agent overwrites' },
      });
      expectError(mine, 412, 41201);
      const now = await api.get(t.path, { token: admin });
      expect(now.json).to.include({ summary: 'customer wrote first' });
    });

    it('a weak tag never satisfies If-Match (strong comparison)', async () => {
      const t = await createTicket(api, admin, customer.id);
      const etag = etagOf(await api.get(t.path, { token: admin }));
      expectError(
        await api.request('PATCH', t.path, {
          token: admin,
          headers: { 'If-Match': `W/${etag}` },
          body: { subject: 'Weak' },
        }),
        412,
        41201,
      );
      await expectUnchanged(t, etag);
    });

    it('the current ETag lets PATCH, PUT and DELETE through, each answering the new ETag', async () => {
      const t = await createTicket(api, admin, customer.id);
      let etag = etagOf(await api.get(t.path, { token: admin }));
      api.clock.advance(1_000);
      const patched = await api.request('PATCH', t.path, {
        token: admin,
        headers: { 'If-Match': etag },
        body: { priority: 'low' },
      });
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.json).to.include({ priority: 'low' });
      expect(etagOf(patched)).not.to.equal(etag);
      etag = etagOf(patched);
      api.clock.advance(1_000);
      const put = await api.request('PUT', t.path, {
        token: admin,
        headers: { 'If-Match': `"x", ${etag}` },
        body: { subject: 'Put through', customer_id: customer.id },
      });
      expect(put.status, put.text).to.equal(200);
      expect(put.json).to.include({ subject: 'Put through' });
      etag = etagOf(put);
      expect(etagOf(await api.get(t.path, { token: admin }))).to.equal(etag);
      const del = await api.request('DELETE', t.path, { token: admin, headers: { 'If-Match': etag } });
      expect(del.status, del.text).to.equal(200);
      expectError(await api.get(t.path, { token: admin }), 410, 41001);
    });

    it('If-Match: * holds for any existing resource', async () => {
      const t = await createTicket(api, admin, customer.id);
      const a = await api.request('PATCH', t.path, {
        token: admin,
        headers: { 'If-Match': '*' },
        body: { subject: 'Any' },
      });
      expect(a.status).to.equal(200);
    });
  });

  describe('Cache-Control and Vary', () => {
    const expectCacheHeaders = (a: Answer, what: string): void => {
      expect(a.header('cache-control'), what).to.equal('private, no-cache');
      // The contract's exact value.
      expect(a.header('vary'), what).to.equal('Accept-Encoding, Authorization');
    };

    it('reads, writes, lists and errors carry private, no-cache and Vary: Accept-Encoding, Authorization', async () => {
      expectCacheHeaders(await api.get(ticket.path, { token: admin }), 'GET');
      expectCacheHeaders(await api.get('/v1/tickets', { token: admin }), 'list');
      expectCacheHeaders(
        await api.post('/v1/tickets', { subject: 'Cache headers', customer_id: customer.id }, { token: admin }),
        'POST',
      );
      expectCacheHeaders(await api.get('/v1/tickets/999999', { token: admin }), '404');
      expectCacheHeaders(await api.get(ticket.path), '401');
      expectCacheHeaders(await api.get(ticket.path, { token: admin, headers: { 'Accept-Encoding': 'gzip' } }), 'gzip');
      expectCacheHeaders(await api.request('DELETE', '/v1/tickets', { token: admin }), '405');
      expectCacheHeaders(await api.get('/v1/openapi.json'), 'openapi.json');
      expectCacheHeaders(await api.get('/docs'), '/docs');
    });

    it('token answers are no-store (RFC 6749 §5.1), successes and failures', async () => {
      const ok = await api.post('/v1/oauth/token', {
        grant_type: 'password',
        username: 'admin@example.com',
        password: 'admin-password-1',
      });
      expect(ok.status).to.equal(200);
      expect(ok.header('cache-control')).to.equal('no-store');
      expect(ok.header('pragma')).to.equal('no-cache');
      expect(ok.header('etag')).to.equal(undefined);
      const bad = await api.post('/v1/oauth/token', {
        grant_type: 'password',
        username: 'admin@example.com',
        password: 'wrong',
      });
      expect(bad.status).to.equal(400);
      expect(bad.header('cache-control')).to.equal('no-store');
    });

    it('token endpoints are no-store also when the request is refused before the route (bad query parameter, unknown X-Api-Version)', async () => {
      // Found by the fuzz (test/fuzz): these answered private, no-cache without Pragma, which the document and RFC 6749 §5.1 rule out.
      const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
      for (const [path, headers] of [
        ['/v1/oauth/token?pretty=%FF', form],
        ['/v1/oauth/token', { ...form, 'X-Api-Version': '9.9' }],
        ['/v1/oauth/revoke?envelope=maybe', form],
        ['/v1/oauth/token.JSON?callback=1x', form],
      ] as const) {
        const a = await api.request('POST', path, { headers, body: 'grant_type=password&username=x&password=y' });
        expect(a.status, `${path} ${a.text}`).to.equal(400);
        expect(a.header('cache-control'), path).to.equal('no-store');
        expect(a.header('pragma'), path).to.equal('no-cache');
      }
    });
  });
});
