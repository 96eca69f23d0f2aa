import { apiVersions, defaultDeprecations } from '@support/adapter-http-koa';
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { startApi, type Api } from '../support/harness.js';
import {
  createTicket,
  expectError,
  imfFixdate,
  jsonpArgument,
  type CreatedTicket,
  type EnvelopeBody,
} from '../support/http-conventions.js';

// Contract §2, §5 (presentation) and §6 (request ids, method override): conventions every
// answer follows, checked over real HTTPS.

describe('HTTP conventions: presentation, versions, aliases, method override, request ids', () => {
  let api: Api;
  let admin: string;
  let customer: { id: number; token: string };
  let ticket: CreatedTicket;

  before(async () => {
    api = await startApi();
    admin = await api.adminToken();
    customer = await api.userWithToken('customer', 'Grace Hopper');
    ticket = await createTicket(api, admin, customer.id, {
      subject: 'Pretty printing',
      summary: 'A summary long enough to be worth compressing. '.repeat(4),
    });
  });
  after(async () => {
    await api.close();
  });

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
