import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteApi, suiteCast } from '../support/suite-api.js';
import { createTicket, imfFixdate, type CreatedTicket } from '../support/http-conventions.js';
import { cachingCast, type Person } from '../support/casts.js';
import { etagOf, expectNotModified } from '../support/caching-checks.js';

// Contract §6 (caching): strong ETags from content, If-None-Match and If-Modified-Since
// (all three HTTP date forms) -> 304 without a body, If-Match -> 412 with nothing stored,
// Vary and Cache-Control on every answer.

describe('HTTP caching: ETag, Last-Modified, conditional requests, Cache-Control and Vary', () => {
  let api: Api, admin: string, customer: Person, ticket: CreatedTicket;
  suiteCast(async () => ({ api, admin, customer, ticket } = await cachingCast()));

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
});

describe('HTTP caching: If-Modified-Since in all three HTTP date forms', () => {
  // The resource is written at the instant of RFC 9110's examples, so the client sends exactly them.
  const instant = Date.UTC(1994, 10, 6, 8, 49, 37);
  let admin: string;
  let ticket: CreatedTicket;

  const api = suiteApi();
  before(async () => {
    api.clock.set(instant);
    admin = await api.adminToken();
    const customer = await api.userWithToken('customer');
    ticket = await createTicket(api, admin, customer.id);
    api.clock.advance(60_000);
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
