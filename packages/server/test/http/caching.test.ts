import { expect } from 'chai';
import { startApi, type Answer, type Api } from '../support/harness.js';
import { createTicket, expectError, imfFixdate, type CreatedTicket } from '../support/http-conventions.js';

// Contract §6 (caching): strong ETags from content, If-None-Match and If-Modified-Since
// (all three HTTP date forms) -> 304 without a body, If-Match -> 412 with nothing stored,
// Vary and Cache-Control on every answer.

const strongTag = /^"[^"\s]+"$/;

const etagOf = (a: Answer): string => {
  const tag = a.header('etag');
  expect(tag, `no ETag on ${a.status}`).to.be.a('string');
  return tag ?? '';
};

const expectNotModified = (a: Answer, etag?: string): void => {
  expect(a.status, a.text).to.equal(304);
  expect(a.raw.length).to.equal(0);
  expect(a.header('content-type')).to.equal(undefined);
  if (etag !== undefined) expect(a.header('etag')).to.equal(etag);
};

describe('HTTP caching: ETag, Last-Modified, conditional requests, Cache-Control and Vary', () => {
  let api: Api;
  let admin: string;
  let customer: { id: number; token: string };
  let ticket: CreatedTicket;

  before(async () => {
    api = await startApi();
    admin = await api.adminToken();
    customer = await api.userWithToken('customer', 'Barbara Liskov');
    ticket = await createTicket(api, admin, customer.id, { subject: 'Cache me', summary: 'x'.repeat(400) });
  });
  after(async () => {
    await api.close();
  });

  describe('ETag', () => {
    it('every 200 GET carries a strong ETag', async () => {
      for (const path of [ticket.path, '/v1/tickets', `${ticket.path}/messages`, '/v1/users/me', '/v1/deprecations']) {
        const a = await api.get(path, { token: admin });
        expect(a.status, path).to.equal(200);
        expect(etagOf(a), path).to.match(strongTag);
      }
    });

    it('depends on the content only: not on pretty-printing, compression or the route spelling', async () => {
      const tags = new Set<string>();
      for (const [path, headers] of [
        [ticket.path, {}],
        [`${ticket.path}?pretty=false`, {}],
        [ticket.path, { 'Accept-Encoding': 'gzip' }],
        [`${ticket.path}?pretty=false`, { 'Accept-Encoding': 'gzip' }],
        [`${ticket.path}.json`, {}],
      ] as const) {
        const a = await api.get(path, { token: admin, headers });
        expect(a.status).to.equal(200);
        tags.add(etagOf(a));
      }
      expect([...tags]).to.have.lengthOf(1);
    });

    it('differs between representations with different content (fields, envelope, callback)', async () => {
      const plain = etagOf(await api.get(ticket.path, { token: admin }));
      const fields = etagOf(await api.get(`${ticket.path}?fields=id,subject`, { token: admin }));
      const enveloped = etagOf(await api.get(`${ticket.path}?envelope=true`, { token: admin }));
      const jsonpA = etagOf(await api.get(`${ticket.path}?callback=a`, { token: admin }));
      const jsonpB = etagOf(await api.get(`${ticket.path}?callback=b`, { token: admin }));
      expect(new Set([plain, fields, enveloped, jsonpA, jsonpB]).size).to.equal(5);
    });

    it('is stable while nothing changes and changes when the resource changes', async () => {
      const t = await createTicket(api, admin, customer.id);
      const first = etagOf(await api.get(t.path, { token: admin }));
      expect(etagOf(await api.get(t.path, { token: admin }))).to.equal(first);
      api.clock.advance(1_000);
      const patched = await api.request('PATCH', t.path, { token: admin, body: { priority: 'high' } });
      expect(patched.status).to.equal(200);
      const second = etagOf(await api.get(t.path, { token: admin }));
      expect(second).not.to.equal(first);
      // A write answers the ETag of what it wrote.
      expect(etagOf(patched)).to.equal(second);
    });

    it('a list ETag changes when an item in it changes', async () => {
      const before = etagOf(await api.get('/v1/tickets', { token: admin }));
      api.clock.advance(1_000);
      const p = await api.request('PATCH', ticket.path, { token: admin, body: { tags: ['changed'] } });
      expect(p.status).to.equal(200);
      const after = etagOf(await api.get('/v1/tickets', { token: admin }));
      expect(after).not.to.equal(before);
    });
  });

  describe('If-None-Match', () => {
    it('the current ETag answers 304 with no body, keeping ETag, Cache-Control and Vary', async () => {
      const a = await api.get(ticket.path, { token: admin });
      const etag = etagOf(a);
      const b = await api.get(ticket.path, { token: admin, headers: { 'If-None-Match': etag } });
      expectNotModified(b, etag);
      expect(b.header('cache-control')).to.equal('private, no-cache');
      expect(b.header('vary')).to.equal(a.header('vary'));
      expect(b.header('x-request-id')).to.be.a('string');
    });

    it('304 also with gzip, pretty=false, in a list of tags, as W/ (weak comparison) and for *', async () => {
      const etag = etagOf(await api.get(ticket.path, { token: admin }));
      expectNotModified(
        await api.get(ticket.path, { token: admin, headers: { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' } }),
        etag,
      );
      expectNotModified(
        await api.get(`${ticket.path}?pretty=false`, { token: admin, headers: { 'If-None-Match': etag } }),
        etag,
      );
      expectNotModified(
        await api.get(ticket.path, { token: admin, headers: { 'If-None-Match': `"other", ${etag}` } }),
        etag,
      );
      expectNotModified(await api.get(ticket.path, { token: admin, headers: { 'If-None-Match': `W/${etag}` } }), etag);
      expectNotModified(await api.get(ticket.path, { token: admin, headers: { 'If-None-Match': '*' } }), etag);
    });

    it('HEAD answers the GET headers (ETag, Last-Modified, length) without a body, and 304 likewise', async () => {
      const get = await api.get(ticket.path, { token: admin });
      const head = await api.request('HEAD', ticket.path, { token: admin });
      expect(head.status).to.equal(200);
      expect(head.raw.length).to.equal(0);
      expect(head.header('etag')).to.equal(get.header('etag'));
      expect(head.header('last-modified')).to.equal(get.header('last-modified'));
      expect(Number(head.header('content-length'))).to.equal(get.raw.length);
      expectNotModified(
        await api.request('HEAD', ticket.path, { token: admin, headers: { 'If-None-Match': etagOf(get) } }),
        etagOf(get),
      );
    });

    it('another ETag answers 200 with the full body', async () => {
      const a = await api.get(ticket.path, { token: admin, headers: { 'If-None-Match': '"not-the-etag"' } });
      expect(a.status).to.equal(200);
      expect(a.json).to.include({ id: ticket.id });
    });

    it('an old ETag answers 200 after the resource changed', async () => {
      const t = await createTicket(api, admin, customer.id);
      const old = etagOf(await api.get(t.path, { token: admin }));
      api.clock.advance(1_000);
      expect((await api.request('PATCH', t.path, { token: admin, body: { summary: 'new' } })).status).to.equal(200);
      const a = await api.get(t.path, { token: admin, headers: { 'If-None-Match': old } });
      expect(a.status).to.equal(200);
      expect(a.json).to.include({ summary: 'new' });
    });

    it('works on lists', async () => {
      const list = await api.get('/v1/tickets', { token: admin });
      expectNotModified(
        await api.get('/v1/tickets', { token: admin, headers: { 'If-None-Match': etagOf(list) } }),
        etagOf(list),
      );
    });

    it('an error is never 304', async () => {
      const a = await api.get('/v1/tickets/999999', { token: admin, headers: { 'If-None-Match': '*' } });
      expectError(a, 404, 40402);
      expect(a.header('etag')).to.equal(undefined);
    });

    it('a write ignores If-None-Match on reads only: POST with If-None-Match * still creates', async () => {
      const a = await api.post(
        '/v1/tickets',
        { subject: 'Created anyway', customer_id: customer.id },
        { token: admin, headers: { 'If-None-Match': '*' } },
      );
      expect(a.status, a.text).to.equal(201);
    });
  });

  describe('Last-Modified and If-Modified-Since', () => {
    it('a single resource carries Last-Modified in RFC 1123 form: its updated_at to the second', async () => {
      const a = await api.get(ticket.path, { token: admin });
      const lm = a.header('last-modified') ?? '';
      expect(lm).to.match(imfFixdate);
      const updated = Date.parse((a.json as { updated_at: string }).updated_at);
      expect(Date.parse(lm)).to.equal(Math.floor(updated / 1000) * 1000);
    });

    it('a list carries no Last-Modified (its newest item cannot show a deleted one): its ETag revalidates it', async () => {
      const leaving = await createTicket(api, admin, customer.id);
      api.clock.advance(5_000);
      const list = await api.get('/v1/tickets?per_page=100', { token: admin });
      expect(list.status).to.equal(200);
      expect(list.header('last-modified')).to.equal(undefined);
      const later = new Date(api.clock.now() + 60_000).toUTCString();
      expect(
        (await api.get('/v1/tickets?per_page=100', { token: admin, headers: { 'If-Modified-Since': later } })).status,
      ).to.equal(200);
      expect((await api.request('DELETE', leaving.path, { token: admin })).status).to.equal(200);
      const after = await api.get('/v1/tickets?per_page=100', {
        token: admin,
        headers: { 'If-None-Match': etagOf(list) },
      });
      expect(after.status, 'the cached list still shows the deleted ticket').to.equal(200);
      expect(etagOf(after)).not.to.equal(etagOf(list));
    });

    it('If-Modified-Since at or after Last-Modified: 304; before it: 200', async () => {
      const a = await api.get(ticket.path, { token: admin });
      const lm = a.header('last-modified') ?? '';
      expectNotModified(await api.get(ticket.path, { token: admin, headers: { 'If-Modified-Since': lm } }));
      const later = new Date(Date.parse(lm) + 60_000).toUTCString();
      expectNotModified(await api.get(ticket.path, { token: admin, headers: { 'If-Modified-Since': later } }));
      const earlier = new Date(Date.parse(lm) - 1_000).toUTCString();
      const b = await api.get(ticket.path, { token: admin, headers: { 'If-Modified-Since': earlier } });
      expect(b.status).to.equal(200);
      expect(b.json).to.include({ id: ticket.id });
    });

    it('an unparsable If-Modified-Since is ignored: 200', async () => {
      for (const v of ['yesterday', '2026-01-06T09:00:00Z', 'Sun, 31 Feb 2026 08:49:37 GMT']) {
        const a = await api.get(ticket.path, { token: admin, headers: { 'If-Modified-Since': v } });
        expect(a.status, v).to.equal(200);
      }
    });

    it('If-None-Match takes precedence over If-Modified-Since', async () => {
      const a = await api.get(ticket.path, { token: admin });
      const b = await api.get(ticket.path, {
        token: admin,
        headers: { 'If-None-Match': '"stale"', 'If-Modified-Since': a.header('last-modified') ?? '' },
      });
      expect(b.status).to.equal(200);
    });
  });

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

describe('HTTP caching: If-Modified-Since in all three HTTP date forms', () => {
  // The resource is written at the instant of RFC 9110's examples, so the client sends exactly them.
  const instant = Date.UTC(1994, 10, 6, 8, 49, 37);
  let api: Api;
  let admin: string;
  let ticket: CreatedTicket;

  before(async () => {
    api = await startApi();
    api.clock.set(instant);
    admin = await api.adminToken();
    const customer = await api.userWithToken('customer');
    ticket = await createTicket(api, admin, customer.id);
    api.clock.advance(60_000);
  });
  after(async () => {
    await api.close();
  });

  it('answers Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT', async () => {
    const a = await api.get(ticket.path, { token: admin });
    expect(a.header('last-modified')).to.equal('Sun, 06 Nov 1994 08:49:37 GMT');
  });

  for (const [form, date] of [
    ['RFC 1123', 'Sun, 06 Nov 1994 08:49:37 GMT'],
    ['RFC 850', 'Sunday, 06-Nov-94 08:49:37 GMT'],
    ['asctime', 'Sun Nov  6 08:49:37 1994'],
  ] as const) {
    it(`${form}: ${date} -> 304 without a body`, async () => {
      expectNotModified(await api.get(ticket.path, { token: admin, headers: { 'If-Modified-Since': date } }));
    });
  }

  for (const [form, date] of [
    ['RFC 1123', 'Sun, 06 Nov 1994 08:49:36 GMT'],
    ['RFC 850', 'Sunday, 06-Nov-94 08:49:36 GMT'],
    ['asctime', 'Sun Nov  6 08:49:36 1994'],
  ] as const) {
    it(`${form}: one second earlier (${date}) -> 200 with the body`, async () => {
      const a = await api.get(ticket.path, { token: admin, headers: { 'If-Modified-Since': date } });
      expect(a.status).to.equal(200);
      expect(a.json).to.include({ id: ticket.id });
    });
  }

  it('a list has no Last-Modified, so If-Modified-Since never makes it 304; its ETag does, until something in it changes', async () => {
    const since = 'Sun, 06 Nov 1994 08:49:37 GMT';
    const list = await api.get('/v1/tickets', { token: admin, headers: { 'If-Modified-Since': since } });
    expect(list.status).to.equal(200);
    expect(list.header('last-modified')).to.equal(undefined);
    const etag = etagOf(list);
    expectNotModified(await api.get('/v1/tickets', { token: admin, headers: { 'If-None-Match': etag } }), etag);
    const p = await api.request('PATCH', ticket.path, { token: admin, body: { priority: 'high' } });
    expect(p.status).to.equal(200);
    const after = await api.get('/v1/tickets', { token: admin, headers: { 'If-None-Match': etag } });
    expect(after.status).to.equal(200);
    expect(etagOf(after)).not.to.equal(etag);
  });
});
