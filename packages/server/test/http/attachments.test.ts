import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { suiteApi } from '../support/suite-api.js';
import { arr, createTicket, fieldErrors, obj, pathOf } from '../support/resources.js';
import { chunkedUpload, multipart, pngBytes, rawUpload, uploaded } from '../support/uploads.js';

// Contract §9 over HTTPS: uploads (raw and multipart, names, types, limits), attaching them to a
// new message, reading them as their message is visible, and deleting them. Every answer is
// also checked against the served OpenAPI document (the harness).

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

describe('HTTP: uploads and attachments', function () {
  this.timeout(60_000);
  let admin: string;
  let customer: { id: number; token: string };
  let agent: { id: number; token: string };
  let ticketPath: string;

  const api = suiteApi({ UPLOAD_MAX_BYTES: '4096', UPLOAD_TTL_S: '600' });
  before(async () => {
    admin = await api.adminToken();
    customer = await api.userWithToken('customer', 'Grace Hopper');
    agent = await api.userWithToken('agent', 'Ada Lovelace');
    ticketPath = pathOf((await createTicket(api, admin, { subject: 'Files', customer_id: customer.id })).url);
  });

  it('takes a raw body: 201 with the upload, its type from the leading bytes, its name normalised', async () => {
    const a = await rawUpload(api, customer.token, pngBytes, '../.secret\u0007/shot.png', {
      'Content-Type': 'text/html',
    });
    expect(a.status).to.equal(201);
    const u = obj(a);
    expect(u).to.include({ filename: 'secretshot.png', content_type: 'image/png', size: pngBytes.length });
    expect(u).to.include({ sha256: sha(pngBytes), scan: 'not_scanned', message: null, ticket: null });
    expect(a.header('location')).to.equal(u.url);
    expect(Date.parse(u.expires_at as string) - Date.parse(u.created_at as string)).to.equal(600_000);
  });

  it('keeps a declared type only when no browser runs it; HTML, SVG and scripts become octet-stream', async () => {
    const typeOf = async (declared: string): Promise<unknown> =>
      obj(await rawUpload(api, agent.token, `plain text ${declared}`, 'x', { 'Content-Type': declared })).content_type;
    expect(await typeOf('text/plain; charset=utf-8')).to.equal('text/plain');
    expect(await typeOf('text/csv')).to.equal('text/csv');
    for (const active of ['text/html', 'image/svg+xml', 'application/javascript', 'text/xml', 'image/png'])
      expect(await typeOf(active), active).to.equal('application/octet-stream');
  });

  it('reads the name from Content-Disposition, filename* over filename', async () => {
    const a = await rawUpload(api, agent.token, 'x', null, {
      'Content-Disposition': `attachment; filename="fallback.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
    });
    expect(obj(a).filename).to.equal('résumé.txt');
    const b = await rawUpload(api, agent.token, 'x', null, {
      'Content-Disposition': 'attachment; filename="plain.txt"',
    });
    expect(obj(b).filename).to.equal('plain.txt');
  });

  it('refuses a missing name and one nothing is left of (422)', async () => {
    const none = await rawUpload(api, agent.token, 'x', null);
    expect(none.status).to.equal(422);
    expect(fieldErrors(none).map((e) => [e.field, e.code])).to.deep.equal([['filename', 42201]]);
    const dots = await rawUpload(api, agent.token, 'x', '.../\u0001');
    expect(fieldErrors(dots).map((e) => e.field)).to.deep.equal(['filename']);
    // The same for a multipart part named file with no filename, or an empty one (a browser's
    // empty file input): a missing name (422), not "no part named file" (400), which it has.
    for (const part of [
      { name: 'file', bytes: 'x' },
      { name: 'file', filename: '', type: 'application/octet-stream', bytes: '' },
    ]) {
      const form = multipart([part]);
      const nameless = await api.request('POST', '/v1/uploads', {
        token: agent.token,
        headers: { 'Content-Type': form.contentType },
        body: form.body,
      });
      expect(
        fieldErrors(nameless).map((e) => [e.field, e.code]),
        part.filename ?? 'no filename',
      ).to.deep.equal([['filename', 42201]]);
    }
  });

  it('takes multipart/form-data with one part named file, as FormData sends it (UTF-8 name)', async () => {
    const { body, contentType } = multipart([
      { name: 'note', bytes: 'ignored field' },
      { name: 'file', filename: 'Übersicht.txt', type: 'text/plain', bytes: 'hello' },
    ]);
    const a = await api.request('POST', '/v1/uploads', {
      token: customer.token,
      headers: { 'Content-Type': contentType },
      body,
    });
    expect(a.status, a.text).to.equal(201);
    expect(obj(a)).to.include({ filename: 'Übersicht.txt', content_type: 'text/plain', size: 5, sha256: sha('hello') });
    const two = multipart([
      { name: 'file', filename: 'a.txt', bytes: 'a' },
      { name: 'file', filename: 'b.txt', bytes: 'b' },
    ]);
    const refused = await api.request('POST', '/v1/uploads', {
      token: customer.token,
      headers: { 'Content-Type': two.contentType },
      body: two.body,
    });
    expect(refused.status).to.equal(400);
    const none = multipart([{ name: 'other', filename: 'a.txt', bytes: 'a' }]);
    const missing = await api.request('POST', '/v1/uploads', {
      token: customer.token,
      headers: { 'Content-Type': none.contentType },
      body: none.body,
    });
    expect(missing.status).to.equal(400);
    // A part name with a control character is a malformed part header (the document's propertyNames says so),
    // before the file part or after it (after it: the request hung, never answered, before the fix).
    const file = { name: 'file', filename: 'a.txt', bytes: 'a' };
    for (const parts of [
      [{ name: 'n\x1dote', bytes: 'x' }, file],
      [file, { name: 'n\x0fote', bytes: 'x' }],
    ]) {
      const controlled = multipart(parts);
      const malformed = await api.request('POST', '/v1/uploads', {
        token: customer.token,
        headers: { 'Content-Type': controlled.contentType },
        body: controlled.body,
      });
      expect([malformed.status, obj(malformed).code], parts[0]?.name).to.deep.equal([400, 40002]);
    }
    const tab = multipart([
      { name: 'a\tnote', bytes: 'x' },
      { name: 'file', filename: 'a.txt', bytes: 'a' },
    ]);
    const tabbed = await api.request('POST', '/v1/uploads', {
      token: customer.token,
      headers: { 'Content-Type': tab.contentType },
      body: tab.body,
    });
    expect(tabbed.status, tabbed.text).to.equal(201);
  });

  it('refuses more than UPLOAD_MAX_BYTES: by Content-Length, and as the bytes of a chunked body pass it', async () => {
    const big = Buffer.alloc(4097, 1);
    const announced = await rawUpload(api, agent.token, big, 'big.bin');
    expect([announced.status, obj(announced).code]).to.deep.equal([413, 41302]);
    const exact = await rawUpload(api, agent.token, Buffer.alloc(4096, 2), 'exact.bin');
    expect(exact.status).to.equal(201);
    const chunked = await chunkedUpload(api, agent.token, [big.subarray(0, 3000), big.subarray(3000)]);
    expect([chunked.status, (JSON.parse(chunked.text) as { code: number }).code]).to.deep.equal([413, 41302]);
    // The same as multipart/form-data: the file part's bytes pass the limit, the rest is drained.
    const form = multipart([{ name: 'file', filename: 'big.bin', bytes: Buffer.alloc(64 * 1024, 3) }]);
    const parts = Array.from({ length: 16 }, (_, i) => form.body.subarray(i * 4096, (i + 1) * 4096));
    const chunkedForm = await chunkedUpload(
      api,
      agent.token,
      [...parts, form.body.subarray(16 * 4096)],
      form.contentType,
    );
    expect([chunkedForm.status, (JSON.parse(chunkedForm.text) as { code: number }).code]).to.deep.equal([413, 41302]);
  });

  it('attaches uploads to a new message, which lists them; the ticket lists them too', async () => {
    const a = await uploaded(api, customer.token, 'first log', 'a.log');
    const b = await uploaded(api, customer.token, 'second log', 'b.log');
    const m = await api.post(
      `${ticketPath}/messages`,
      { body: 'logs', attachment_ids: [b, a] },
      { token: customer.token },
    );
    expect(m.status, m.text).to.equal(201);
    const listed = obj(m).attachments as Record<string, unknown>[];
    expect(listed.map((x) => x.id)).to.deep.equal([b, a]);
    expect(Object.keys(listed[0] ?? {})).to.have.members([
      'id',
      'url',
      'content_url',
      'filename',
      'content_type',
      'size',
      'sha256',
    ]);
    const one = obj(await api.get(`/v1/attachments/${String(a)}`, { token: customer.token }));
    expect(one.message).to.deep.equal({ id: obj(m).id, url: obj(m).url });
    expect(one.expires_at).to.equal(null);
    const all = arr(await api.get(`${ticketPath}/attachments`, { token: agent.token })).map((x) => x.id);
    expect(all.slice(-2)).to.deep.equal([b, a]);
  });

  it("refuses another user's, an attached, an expired upload and more than 10, naming each; nothing is stored", async () => {
    const mine = await uploaded(api, customer.token, 'mine');
    const theirs = await uploaded(api, agent.token, 'theirs');
    const attached = await uploaded(api, customer.token, 'attached');
    await api.post(`${ticketPath}/messages`, { body: 'x', attachment_ids: [attached] }, { token: customer.token });
    const before = arr(await api.get(`${ticketPath}/messages?per_page=100`, { token: agent.token })).length;
    const a = await api.post(
      `${ticketPath}/messages`,
      { body: 'x', attachment_ids: [mine, theirs, attached, 999999] },
      { token: customer.token },
    );
    expect(a.status).to.equal(422);
    expect(fieldErrors(a).map((e) => e.field)).to.deep.equal([
      'attachment_ids.1',
      'attachment_ids.2',
      'attachment_ids.3',
    ]);
    const eleven = await api.post(
      `${ticketPath}/messages`,
      { body: 'x', attachment_ids: Array.from({ length: 11 }, (_, i) => i + 1) },
      { token: customer.token },
    );
    expect(fieldErrors(eleven).map((e) => [e.field, e.code])).to.deep.equal([['attachment_ids', 42205]]);
    api.clock.advance(600_001);
    const expired = await api.post(
      `${ticketPath}/messages`,
      { body: 'x', attachment_ids: [mine] },
      { token: customer.token },
    );
    expect(fieldErrors(expired).map((e) => e.field)).to.deep.equal(['attachment_ids.0']);
    expect(arr(await api.get(`${ticketPath}/messages?per_page=100`, { token: agent.token }))).to.have.length(before);
    expect((await api.get(`/v1/attachments/${String(mine)}`, { token: customer.token })).status).to.equal(404);
  });
});
