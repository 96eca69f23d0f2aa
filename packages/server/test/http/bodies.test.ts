import { expect } from 'chai';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { adminEmail, adminPassword } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { createTicket, expectError, streamedRequest, type CreatedTicket } from '../support/http-conventions.js';

// Contract §6 (request bodies): bodies are UTF-8 and read strictly. Bytes that are not UTF-8
// are 400 (never stored as U+FFFD), a JSON object that names a key twice is 400 (I-JSON,
// RFC 7493: last-one-wins would be a guess), a UTF-8 byte order mark is ignored (RFC 8259
// §8.1), and a gzip, deflate or br Content-Encoding is read.

const MiB = 1024 * 1024;
const json = { 'Content-Type': 'application/json' };
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
const bom = Buffer.from([0xef, 0xbb, 0xbf]);

describe('HTTP request bodies: strict UTF-8, unique JSON keys, BOM, Content-Encoding', () => {
  let admin: string;
  let customer: { id: number; email: string; token: string };
  let ticket: CreatedTicket;

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    customer = await api.userWithToken('customer', 'Grace Hopper');
    ticket = await createTicket(api, admin, customer.id);
  });

  const ticketCount = async (): Promise<number> =>
    Number((await api.get('/v1/tickets?per_page=1', { token: admin })).header('x-total-count'));
  const postTicket = (body: Buffer | string, headers: Readonly<Record<string, string>> = json) =>
    api.post('/v1/tickets', body, { token: admin, headers });
  const formBody = `grant_type=password&username=${encodeURIComponent(adminEmail)}&password=${encodeURIComponent(adminPassword)}`;

  describe('invalid UTF-8', () => {
    // A lone continuation byte, a truncated sequence, an overlong '/', a UTF-16 surrogate, a byte never in UTF-8, a code point over U+10FFFF.
    const invalid = [[0x80], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xf4, 0x90, 0x80, 0x80]];

    it('a JSON body with bytes that are not UTF-8 is 400 malformed body, and nothing is stored', async () => {
      const before = await ticketCount();
      for (const bad of invalid) {
        const body = Buffer.concat([
          Buffer.from('{"subject":"Caf'),
          Buffer.from(bad),
          Buffer.from(`","customer_id":${customer.id}}`),
        ]);
        const e = expectError(await postTicket(body), 400, 40002);
        expect(e.description, bad.join(',')).to.include('not valid UTF-8');
      }
      expect(await ticketCount()).to.equal(before);
    });

    it('PATCH and merge-patch bodies too: the ticket is unchanged', async () => {
      const before = await api.get(ticket.path, { token: admin });
      const body = Buffer.concat([Buffer.from('{"subject":"x'), Buffer.from([0xfe]), Buffer.from('"}')]);
      for (const type of ['application/json', 'application/merge-patch+json']) {
        expectError(
          await api.request('PATCH', ticket.path, { token: admin, body, headers: { 'Content-Type': type } }),
          400,
          40002,
        );
      }
      expect((await api.get(ticket.path, { token: admin })).header('etag')).to.equal(before.header('etag'));
    });

    it('a form body with bytes that are not UTF-8 on /v1/oauth/token is 400 with the RFC 6749 error', async () => {
      const body = Buffer.concat([Buffer.from(`${formBody}&note=`), Buffer.from([0xc3, 0x28])]);
      const a = await api.post('/v1/oauth/token', body, { headers: form });
      const e = expectError(a, 400, 40002);
      expect(e.description).to.include('not valid UTF-8');
      expect(a.json).to.include({ error: 'invalid_request' });
      expect(a.header('cache-control')).to.equal('no-store');
      // The same parameters in clean UTF-8 are a grant.
      expect((await api.post('/v1/oauth/token', `${formBody}&note=%C3%A9`, { headers: form })).status).to.equal(200);
    });

    it('a percent-escape that is not UTF-8 in a form value (password=%FF) is 400 as raw bytes are; a lone % stays text', async () => {
      for (const bad of [`${formBody}&note=%FF`, `${formBody}&note=%C3%28`, `${formBody}&%FF=x`]) {
        const a = await api.post('/v1/oauth/token', bad, { headers: form });
        const e = expectError(a, 400, 40002);
        expect(e.description).to.include('not UTF-8');
        expect(a.json).to.include({ error: 'invalid_request' });
      }
      const wrongPassword = `grant_type=password&username=${encodeURIComponent(adminEmail)}&password=%FF`;
      expectError(await api.post('/v1/oauth/token', wrongPassword, { headers: form }), 400, 40002);
      // A '%' without two hex digits is not an escape: the value is the text itself (a wrong password here).
      const lone = await api.post(
        '/v1/oauth/token',
        `grant_type=password&username=${encodeURIComponent(adminEmail)}&password=100%zz`,
        { headers: form },
      );
      expect(lone.status).to.equal(400);
      expect(lone.json).to.include({ error: 'invalid_grant' });
    });

    it('bytes that are not UTF-8 inside a gzip-encoded body are 400 as well', async () => {
      const body = gzipSync(
        Buffer.concat([
          Buffer.from('{"subject":"'),
          Buffer.from([0x80]),
          Buffer.from(`","customer_id":${customer.id}}`),
        ]),
      );
      expectError(await postTicket(body, { ...json, 'Content-Encoding': 'gzip' }), 400, 40002);
    });
  });

  describe('valid UTF-8 round-trips', () => {
    it('non-ASCII and astral characters (emoji) are stored as sent, raw or as \\u escapes', async () => {
      const subject = 'Café – 日本語 – 🎫🙂 – 𝄞';
      const raw = await postTicket(Buffer.from(JSON.stringify({ subject, customer_id: customer.id }), 'utf8'));
      expect(raw.status, raw.text).to.equal(201);
      expect(raw.json).to.include({ subject });
      const escaped = await postTicket(`{"subject":"Caf\\u00e9 \\ud83c\\udfab","customer_id":${customer.id}}`);
      expect(escaped.status, escaped.text).to.equal(201);
      expect(escaped.json).to.include({ subject: 'Café 🎫' });
    });

    it('a \\u escape of a lone UTF-16 surrogate is valid JSON but not text: 422 invalid value, nothing stored', async () => {
      const before = await ticketCount();
      const lone = await postTicket(`{"subject":"Caf\\u00e9 \\ud83c","customer_id":${customer.id}}`);
      const body = expectError(lone, 422, 42200);
      expect(body.errors).to.deep.equal([
        {
          code: 42206,
          field: 'subject',
          message: 'must be Unicode text: it holds a UTF-16 surrogate without its pair',
        },
      ]);
      expect(await ticketCount()).to.equal(before);
    });

    it('a UTF-8 byte order mark is ignored (RFC 8259 §8.1), for JSON and forms', async () => {
      const a = await postTicket(
        Buffer.concat([bom, Buffer.from(JSON.stringify({ subject: 'With BOM 🙂', customer_id: customer.id }))]),
      );
      expect(a.status, a.text).to.equal(201);
      expect(a.json).to.include({ subject: 'With BOM 🙂' });
      const token = await api.post('/v1/oauth/token', Buffer.concat([bom, Buffer.from(formBody)]), { headers: form });
      expect(token.status, token.text).to.equal(200);
    });

    it('a BOM alone is an empty body (400), and so is a body of whitespace', async () => {
      expectError(await postTicket(bom), 400, 40002);
      expectError(await postTicket(' \n'), 400, 40002);
    });
  });

  describe('duplicate JSON keys (I-JSON, RFC 7493)', () => {
    it('a key twice in the top-level object is 400 naming the key, and nothing is stored', async () => {
      const before = await ticketCount();
      const e = expectError(await postTicket(`{"subject":"a","customer_id":${customer.id},"subject":"b"}`), 400, 40002);
      expect(e.description).to.include('"subject"').and.include('twice').and.include('top-level');
      expect(await ticketCount()).to.equal(before);
    });

    it('a key twice in a nested object, at any depth, is 400 naming the key and where it is', async () => {
      const before = await ticketCount();
      const e = expectError(
        await postTicket(`{"subject":"a","customer_id":${customer.id},"extra":{"x":{"deep":[1,{"k":1,"k":2}]}}}`),
        400,
        40002,
      );
      expect(e.description).to.include('"k"').and.include('/extra/x/deep/1');
      const inArray = expectError(await postTicket('[{"a":1},{"b":1,"b":1}]'), 400, 40002);
      expect(inArray.description).to.include('"b"').and.include('"/1"');
      expect(await ticketCount()).to.equal(before);
    });

    it('keys are compared after their escapes are decoded', async () => {
      const e = expectError(
        await postTicket(`{"subject":"a","customer_id":${customer.id},"sub\\u006aect":"b"}`),
        400,
        40002,
      );
      expect(e.description).to.include('"subject"');
      expectError(await postTicket('{"\\ud83c\\udfab":1,"🎫":2}'), 400, 40002);
    });

    it('on PATCH and on the token endpoint too', async () => {
      const before = await api.get(ticket.path, { token: admin });
      const patch = await api.request('PATCH', ticket.path, {
        token: admin,
        body: '{"priority":"high","priority":"low"}',
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(expectError(patch, 400, 40002).description).to.include('"priority"');
      expect((await api.get(ticket.path, { token: admin })).header('etag')).to.equal(before.header('etag'));
      const grant = await api.post(
        '/v1/oauth/token',
        `{"grant_type":"password","username":"${adminEmail}","password":"x","password":"${adminPassword}"}`,
        { headers: json },
      );
      expect(expectError(grant, 400, 40002).description).to.include('"password"');
      expect(grant.json).to.include({ error: 'invalid_request' });
    });

    it('equal keys in different objects, and key-like text inside strings, are fine', async () => {
      const subject = '{"subject":"x","subject":"y"}';
      const a = await postTicket(
        `{"subject":${JSON.stringify(subject)},"customer_id":${customer.id},"tags":["subject","subject"]}`,
      );
      expect(a.status, a.text).to.equal(201);
      expect(a.json).to.include({ subject });
      // Parsed, then judged by the use case: the unknown field is 422, not a 400 for its inner keys.
      const nested = await postTicket(
        `{"subject":"s","customer_id":${customer.id},"extra":{"subject":"a","n":{"subject":"b"},"l":[{"subject":1},{"subject":2}]}}`,
      );
      const e = expectError(nested, 422);
      expect((e.errors ?? []).map((f) => f.field)).to.deep.equal(['extra']);
    });

    it('a "__proto__" key is still refused (400)', async () => {
      expectError(
        await postTicket(`{"subject":"a","customer_id":${customer.id},"__proto__":{"admin":true}}`),
        400,
        40002,
      );
      expectError(await postTicket('{"a":{"\\u005f_proto__":1}}'), 400, 40002);
    });

    it('well-formed JSON that is not an object still parses (the use case answers 422)', async () => {
      for (const body of ['"just a string"', '3', 'null', '[1,2]', '[{"a":1},{"a":1}]'])
        expect((await postTicket(body)).status, body).to.equal(422);
    });
  });

  describe('unchanged: forms, Content-Encoding, sizes', () => {
    it('a form parameter sent twice is still invalid_request (RFC 6749 §3.2), and an empty form names what is missing', async () => {
      const twice = await api.post('/v1/oauth/token', `${formBody}&password=other`, { headers: form });
      expectError(twice, 400, 40010);
      expect(twice.json).to.include({ error: 'invalid_request' });
      const nested = await api.post('/v1/oauth/token', `${formBody}&username[x]=1`, { headers: form });
      expectError(nested, 400, 40010);
      expect(nested.json).to.include({ error: 'invalid_request' });
      const empty = await api.post('/v1/oauth/token', '', { headers: form });
      expect(expectError(empty, 400, 40010).description).to.include('grant_type');
    });

    it('gzip and deflate request bodies are read; another Content-Encoding is 415', async () => {
      const body = Buffer.from(JSON.stringify({ subject: 'Zipped 🙂', customer_id: customer.id }));
      for (const [encoding, bytes] of [
        ['gzip', gzipSync(body)],
        ['deflate', deflateSync(body)],
      ] as const) {
        const a = await postTicket(bytes, { ...json, 'Content-Encoding': encoding });
        expect(a.status, `${encoding}: ${a.text}`).to.equal(201);
        expect(a.json).to.include({ subject: 'Zipped 🙂' });
      }
      expectError(await postTicket(body, { ...json, 'Content-Encoding': 'compress' }), 415, 41501);
      expectError(await postTicket(Buffer.from('not gzip'), { ...json, 'Content-Encoding': 'gzip' }), 400, 40002);
    });

    it('a media type followed by spaces before its parameters is that media type (RFC 9110 §8.3.1)', async () => {
      // Probed: "application/json ; charset=utf-8" was 415.
      const body = Buffer.from(JSON.stringify({ subject: 'Spaced type', customer_id: customer.id }));
      const a = await postTicket(body, { 'Content-Type': 'application/json ; charset=utf-8' });
      expect(a.status, a.text).to.equal(201);
      const patched = await api.request('PATCH', ticket.path, {
        token: admin,
        body: '{"summary":"spaced"}',
        headers: { 'Content-Type': 'application/merge-patch+json\t;charset=UTF-8' },
      });
      expect(patched.status, patched.text).to.equal(200);
    });

    it('content codings are named case-insensitively, x-gzip is gzip, and the refusals say what is read', async () => {
      // Probed: GZIP and x-gzip (RFC 9110 §8.4.1, §8.4.1.3) were 415 "send it uncompressed or
      // gzip", though br and deflate are read too; a body that is not gzip was "could not be
      // read as application/json".
      const body = Buffer.from(JSON.stringify({ subject: 'Zipped again', customer_id: customer.id }));
      for (const [encoding, bytes] of [
        ['GZIP', gzipSync(body)],
        ['x-gzip', gzipSync(body)],
        ['Br', brotliCompressSync(body)],
      ] as const) {
        const a = await postTicket(bytes, { ...json, 'Content-Encoding': encoding });
        expect(a.status, `${encoding}: ${a.text}`).to.equal(201);
      }
      const refused = expectError(await postTicket(body, { ...json, 'Content-Encoding': 'zstd' }), 415, 41501);
      expect(refused.description).to.include('gzip, deflate or br');
      const broken = expectError(
        await postTicket(Buffer.from('not gzip'), { ...json, 'Content-Encoding': 'gzip' }),
        400,
        40002,
      );
      expect(broken.description).to.equal('the request body could not be decompressed as gzip');
    });

    it('a gzip body that inflates to over 1 MiB is 413', async () => {
      const big = gzipSync(
        Buffer.from(JSON.stringify({ subject: 'Bomb', summary: 'x'.repeat(MiB), customer_id: customer.id })),
      );
      expect(big.length).to.be.lessThan(MiB);
      expectError(await postTicket(big, { ...json, 'Content-Encoding': 'gzip' }), 413, 41301);
    });

    it('a request without a body (no Content-Length) is 400 empty', async () => {
      const a = await streamedRequest(api, 'POST', '/v1/tickets', [], {
        ...json,
        Authorization: `Bearer ${admin}`,
        'Content-Length': '0',
      });
      expect(a.status, a.text).to.equal(400);
    });
  });
});
