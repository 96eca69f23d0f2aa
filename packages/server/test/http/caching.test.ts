import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { createTicket, expectError, type CreatedTicket } from '../support/http-conventions.js';
import { cachingCast, type Person } from '../support/casts.js';
import { etagOf, expectNotModified, strongTag } from '../support/caching-checks.js';

// Contract §6 (caching): strong ETags from content, If-None-Match and If-Modified-Since
// (all three HTTP date forms) -> 304 without a body, If-Match -> 412 with nothing stored,
// Vary and Cache-Control on every answer.

describe('HTTP caching: ETag, Last-Modified, conditional requests, Cache-Control and Vary', () => {
  let api: Api, admin: string, customer: Person, ticket: CreatedTicket;
  suiteCast(async () => ({ api, admin, customer, ticket } = await cachingCast()));

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
});
