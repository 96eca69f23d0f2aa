import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import {
  createTicket,
  expectError,
  jsonpArgument,
  type CreatedTicket,
  type EnvelopeBody,
} from '../support/http-conventions.js';
import { conventionsCast, type Person } from '../support/casts.js';

// Contract §2, §5 (presentation) and §6 (request ids, method override): conventions every
// answer follows, checked over real HTTPS.

describe('HTTP conventions: presentation, versions, aliases, method override, request ids', () => {
  let api: Api, admin: string, customer: Person, ticket: CreatedTicket;
  suiteCast(async () => ({ api, admin, customer, ticket } = await conventionsCast()));

  describe('JSON layout and compression', () => {
    it('pretty-prints JSON with 2 spaces by default, as application/json in UTF-8', async () => {
      const a = await api.get(ticket.path, { token: admin });
      expect(a.status).to.equal(200);
      expect(a.header('content-type')).to.equal('application/json; charset=utf-8');
      expect(a.text).to.equal(`${JSON.stringify(a.json, null, 2)}\n`);
      expect(a.text).to.match(/^\{\n {2}"id": \d+,\n/);
    });

    it('answers compact JSON with pretty=false, the same value and the same ETag', async () => {
      const pretty = await api.get(ticket.path, { token: admin });
      const compact = await api.get(`${ticket.path}?pretty=false`, { token: admin });
      expect(compact.status).to.equal(200);
      expect(compact.text).to.equal(JSON.stringify(compact.json));
      expect(compact.text).not.to.include('\n');
      expect(compact.json).to.deep.equal(pretty.json);
      expect(compact.header('etag')).to.equal(pretty.header('etag'));
    });

    it('pretty-prints lists and errors too', async () => {
      const list = await api.get('/v1/tickets', { token: admin });
      expect(list.text).to.equal(`${JSON.stringify(list.json, null, 2)}\n`);
      const missing = await api.get('/v1/tickets/999999', { token: admin });
      expect(missing.status).to.equal(404);
      expect(missing.text).to.equal(`${JSON.stringify(missing.json, null, 2)}\n`);
      const compactError = await api.get('/v1/tickets/999999?pretty=false', { token: admin });
      expect(compactError.text).to.equal(JSON.stringify(compactError.json));
    });

    it('refuses a pretty value other than true or false: 400 naming the parameter', async () => {
      const a = await api.get(`${ticket.path}?pretty=yes`, { token: admin });
      const body = expectError(a, 400, 40001);
      expect(body.errors?.map((e) => e.field)).to.deep.equal(['pretty']);
    });

    it('refuses pretty, envelope or callback given twice: 400 saying so, not that the (good) value is bad', async () => {
      // Was "pretty must be true or false" for pretty=false&pretty=false.
      for (const [name, value] of [
        ['pretty', 'false'],
        ['envelope', 'true'],
        ['callback', 'cb'],
      ]) {
        const a = await api.get(`${ticket.path}?${name}=${value}&${name}=${value}`, { token: admin });
        const body = expectError(a, 400, 40001);
        expect(body.errors, name).to.deep.equal([
          { code: 40001, field: name, message: `${name} must be given once (got 2 values)` },
        ]);
      }
    });

    it('gzips when the client accepts gzip: gzip bytes on the wire that decode to the same JSON', async () => {
      const identity = await api.get(ticket.path, { token: admin });
      expect(identity.header('content-encoding')).to.equal(undefined);
      expect(identity.raw.toString('utf8')).to.equal(identity.text);

      const gz = await api.get(ticket.path, { token: admin, headers: { 'Accept-Encoding': 'gzip' } });
      expect(gz.status).to.equal(200);
      expect(gz.header('content-encoding')).to.equal('gzip');
      expect([...gz.raw.subarray(0, 2)]).to.deep.equal([0x1f, 0x8b]);
      expect(gunzipSync(gz.raw).toString('utf8')).to.equal(identity.text);
      expect(gz.raw.length).to.be.lessThan(identity.raw.length);
      expect(Number(gz.header('content-length'))).to.equal(gz.raw.length);
      // Compression is not content: same ETag.
      expect(gz.header('etag')).to.equal(identity.header('etag'));
    });

    it('gzips for Accept-Encoding lists and wildcards, not when gzip is refused with q=0', async () => {
      const listed = await api.get(ticket.path, {
        token: admin,
        headers: { 'Accept-Encoding': 'br;q=1.0, gzip;q=0.8, deflate' },
      });
      expect(listed.header('content-encoding')).to.equal('gzip');
      const wildcard = await api.get(ticket.path, { token: admin, headers: { 'Accept-Encoding': '*' } });
      expect(wildcard.header('content-encoding')).to.equal('gzip');
      const refused = await api.get(ticket.path, {
        token: admin,
        headers: { 'Accept-Encoding': 'gzip;q=0, identity' },
      });
      expect(refused.header('content-encoding')).to.equal(undefined);
      expect(JSON.parse(refused.raw.toString('utf8'))).to.deep.equal(listed.json);
    });

    it('gzips small bodies too (the contract: gzip whenever the client accepts it)', async () => {
      for (const path of ['/v1/tickets/999999', '/healthz', '/v1/tickets?state=pending&pretty=false']) {
        const a = await api.get(path, { token: admin, headers: { 'Accept-Encoding': 'gzip' } });
        expect(a.raw.length, path).to.be.greaterThan(0);
        expect(a.header('content-encoding'), path).to.equal('gzip');
        expect(gunzipSync(a.raw).toString('utf8'), path).to.equal(a.text);
      }
    });

    it('gzips error bodies too', async () => {
      const a = await api.get('/v1/tickets?sort=nonsense', { token: admin, headers: { 'Accept-Encoding': 'gzip' } });
      expect(a.status).to.equal(400);
      expect(a.header('content-encoding')).to.equal('gzip');
      expect(JSON.parse(gunzipSync(a.raw).toString('utf8'))).to.deep.equal(a.json);
    });
  });

  describe('envelope=true and JSONP', () => {
    it('envelope=true answers 200 with {status_code, next_page, response}', async () => {
      const bare = await api.get(ticket.path, { token: admin });
      const a = await api.get(`${ticket.path}?envelope=true`, { token: admin });
      expect(a.status).to.equal(200);
      expect(a.header('content-type')).to.equal('application/json; charset=utf-8');
      expect(a.json).to.deep.equal({ status_code: 200, next_page: null, response: bare.json });
    });

    it('envelope=false is the bare resource; another value is 400', async () => {
      const a = await api.get(`${ticket.path}?envelope=false`, { token: admin });
      expect((a.json as { id: number }).id).to.equal(ticket.id);
      const bad = expectError(await api.get(`${ticket.path}?envelope=1`, { token: admin }), 400, 40001);
      expect(bad.errors?.map((e) => e.field)).to.deep.equal(['envelope']);
    });

    it('envelopes errors the same way: 200 outside, the real status and error body inside', async () => {
      const a = await api.get('/v1/tickets/999999?envelope=true', { token: admin });
      expect(a.status).to.equal(200);
      const env = a.json as EnvelopeBody;
      expect(env.status_code).to.equal(404);
      expect(env.next_page).to.equal(null);
      expect(env.response).to.include({ code: 40402 });
      const unauthenticated = await api.get(`${ticket.path}?envelope=true`);
      expect(unauthenticated.status).to.equal(200);
      expect((unauthenticated.json as EnvelopeBody).status_code).to.equal(401);
      expect((unauthenticated.json as EnvelopeBody).response).to.include({ code: 40101 });
    });

    it('envelope carries the next page of a list as an absolute URL, null on the last page', async () => {
      await createTicket(api, admin, customer.id);
      const first = await api.get('/v1/tickets?per_page=1&envelope=true', { token: admin });
      const env = first.json as EnvelopeBody;
      expect(env.status_code).to.equal(200);
      expect(env.response).to.be.an('array').with.lengthOf(1);
      expect(env.next_page).to.be.a('string');
      const next = new URL(env.next_page ?? '');
      expect(`${next.protocol}//${next.host}`).to.equal(api.origin);
      expect(next.pathname).to.equal('/v1/tickets');
      expect(next.searchParams.get('page')).to.equal('2');
      expect(next.searchParams.get('per_page')).to.equal('1');
      const total = Number(first.header('x-total-count'));
      const last = await api.get(`/v1/tickets?per_page=1&envelope=true&page=${total}`, { token: admin });
      expect((last.json as EnvelopeBody).next_page).to.equal(null);
    });

    it('callback=<name> answers /**/name({envelope}); as JavaScript with nosniff', async () => {
      const bare = await api.get(ticket.path, { token: admin });
      const a = await api.get(`${ticket.path}?callback=handleTicket`, { token: admin });
      expect(a.status).to.equal(200);
      expect(a.header('content-type')).to.equal('application/javascript; charset=utf-8');
      expect(a.header('x-content-type-options')).to.equal('nosniff');
      expect(jsonpArgument(a.text, 'handleTicket')).to.deep.equal({
        status_code: 200,
        next_page: null,
        response: bare.json,
      });
    });

    it('accepts dotted callback names and the token in ?access_token= (what JSONP can send)', async () => {
      const a = await api.get(
        `${ticket.path}?callback=app.on_ticket.$done&access_token=${encodeURIComponent(customer.token)}`,
      );
      expect(a.status).to.equal(200);
      const env = jsonpArgument(a.text, 'app.on_ticket.$done');
      expect(env.status_code).to.equal(200);
      expect(env.response).to.include({ id: ticket.id });
    });

    it('JSONP errors are wrapped the same way', async () => {
      const a = await api.get('/v1/tickets/999999?callback=cb', { token: admin });
      expect(a.status).to.equal(200);
      expect(a.header('content-type')).to.equal('application/javascript; charset=utf-8');
      const env = jsonpArgument(a.text, 'cb');
      expect(env.status_code).to.equal(404);
      expect(env.response).to.include({ code: 40402 });
    });

    it('escapes U+2028 and U+2029 in JSONP bodies (they end a string literal in older engines)', async () => {
      const t = await createTicket(api, admin, customer.id, {
        subject: 'line\u2028separator and paragraph\u2029separator',
      });
      const a = await api.get(`${t.path}?callback=cb`, { token: admin });
      expect(a.status).to.equal(200);
      expect(a.text).not.to.match(/[\u2028\u2029]/);
      expect(a.text).to.include('\\u2028');
      expect(jsonpArgument(a.text, 'cb').response).to.include({
        subject: 'line\u2028separator and paragraph\u2029separator',
      });
    });

    for (const bad of ['alert(1)', '1abc', 'a..b', 'a.', 'a-b', '', 'x'.repeat(129), '<script>']) {
      it(`refuses the callback name ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 10)}… (${bad.length} chars)` : bad)}: 400 as plain JSON`, async () => {
        const a = await api.get(`${ticket.path}?callback=${encodeURIComponent(bad)}`, { token: admin });
        const body = expectError(a, 400, 40001);
        expect(body.errors?.map((e) => e.field)).to.deep.equal(['callback']);
        expect(a.text.startsWith('/**/')).to.equal(false);
      });
    }

    it('accepts a callback name of exactly 128 characters', async () => {
      const name = `a${'b'.repeat(127)}`;
      const a = await api.get(`${ticket.path}?callback=${name}`, { token: admin });
      expect(a.status).to.equal(200);
      expect(jsonpArgument(a.text, name).status_code).to.equal(200);
    });
  });
});
