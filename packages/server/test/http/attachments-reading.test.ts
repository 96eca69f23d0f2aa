import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { suiteApi } from '../support/suite-api.js';
import { arr, createTicket, obj, pathOf } from '../support/resources.js';
import { pngBytes, rawUpload, uploaded } from '../support/uploads.js';

// Contract §9 over HTTPS: an attachment's bytes (streamed, ETag, ranges, the headers that keep a
// browser from running them, the three ways of sending a token), visibility as its message's,
// deletion (redaction), the limit of unattached uploads, Idempotency-Key, scopes and the feed.

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** A response's status and text, once it has all arrived. */
const text = (res: IncomingMessage): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
    });
    res.on('error', reject);
  });

describe('HTTP: attachments read, deleted, counted', function () {
  this.timeout(60_000);
  let admin: string;
  let customer: { id: number; token: string };
  let other: { id: number; token: string };
  let agent: { id: number; token: string };
  let ticketPath: string;

  /** A message on the ticket by `token` carrying a new upload of `bytes`; answers the attachment id and the message path. */
  const attached = async (token: string, bytes: Buffer | string, extra: Record<string, unknown> = {}) => {
    const id = await uploaded(api, token, bytes);
    const m = await api.post(`${ticketPath}/messages`, { body: 'file', attachment_ids: [id], ...extra }, { token });
    expect(m.status, m.text).to.equal(201);
    return { id, message: pathOf(obj(m).url) };
  };

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    customer = await api.userWithToken('customer', 'Grace Hopper');
    other = await api.userWithToken('customer', 'Alan Kay');
    agent = await api.userWithToken('agent', 'Ada Lovelace');
    ticketPath = pathOf((await createTicket(api, admin, { subject: 'Files', customer_id: customer.id })).url);
  });

  it('streams the bytes with a strong ETag, 304, one Range (206) and 416, and the headers of safe content', async () => {
    const text = 'line one\nline two\n';
    const { id } = await attached(customer.token, text);
    const path = `/v1/attachments/${String(id)}/content`;
    const a = await api.get(path, { token: customer.token });
    expect([a.status, a.text]).to.deep.equal([200, text]);
    expect(a.header('etag')).to.equal(`"${sha(text)}"`);
    expect(a.header('x-content-type-options')).to.equal('nosniff');
    expect(a.header('content-security-policy')).to.match(/^sandbox/);
    expect(a.header('cache-control')).to.match(/^private, max-age=\d+$/);
    expect(a.header('content-disposition')).to.equal(`attachment; filename="file.txt"; filename*=UTF-8''file.txt`);
    expect(a.header('accept-ranges')).to.equal('bytes');
    expect(
      (await api.get(path, { token: customer.token, headers: { 'If-None-Match': `"${sha(text)}"` } })).status,
    ).to.equal(304);
    const part = await api.get(path, { token: customer.token, headers: { Range: 'bytes=5-7' } });
    expect([part.status, part.text, part.header('content-range')]).to.deep.equal([
      206,
      'one',
      `bytes 5-7/${String(text.length)}`,
    ]);
    const tail = await api.get(path, { token: customer.token, headers: { Range: 'bytes=-5' } });
    expect(tail.text).to.equal(text.slice(-5));
    const past = await api.get(path, { token: customer.token, headers: { Range: 'bytes=999-' } });
    expect([past.status, past.header('content-range')]).to.deep.equal([416, `bytes */${String(text.length)}`]);
    const head = await api.request('HEAD', path, { token: customer.token });
    expect([head.status, head.header('content-length'), head.text]).to.deep.equal([200, String(text.length), '']);
  });

  it('serves raster images inline, and takes the token all three ways (an <img src> with ?access_token=)', async () => {
    const { id } = await attached(customer.token, pngBytes);
    const path = `/v1/attachments/${String(id)}/content`;
    const basic = `Basic ${Buffer.from(`${customer.token}:`).toString('base64')}`;
    for (const a of [
      await api.get(`${path}?access_token=${customer.token}`),
      await api.get(path, { headers: { Authorization: basic } }),
      await api.get(path, { token: customer.token }),
    ]) {
      expect(a.status).to.equal(200);
      expect(a.raw.equals(pngBytes)).to.equal(true);
      expect(a.header('content-type')).to.equal('image/png');
      expect(a.header('content-disposition')).to.match(/^inline; /);
    }
    expect((await api.get(path)).status).to.equal(401);
  });

  it("is visible exactly when its message is: 404 to others, an internal note's to customers; 410 once deleted", async () => {
    const open = await attached(customer.token, 'visible');
    expect((await api.get(`/v1/attachments/${String(open.id)}`, { token: other.token })).status).to.equal(404);
    expect((await api.get(`/v1/attachments/${String(open.id)}/content`, { token: other.token })).status).to.equal(404);
    const note = await attached(agent.token, 'internal', { internal: true });
    expect((await api.get(`/v1/attachments/${String(note.id)}`, { token: customer.token })).status).to.equal(404);
    expect((await api.get(`/v1/attachments/${String(note.id)}`, { token: agent.token })).status).to.equal(200);
    const listed = arr(await api.get(`${ticketPath}/attachments?per_page=100`, { token: customer.token }));
    expect(listed.map((x) => x.id))
      .to.include(open.id)
      .and.not.include(note.id);
    const agentUpload = await uploaded(api, agent.token, 'not attached');
    expect((await api.get(`/v1/attachments/${String(agentUpload)}`, { token: admin })).status).to.equal(404);
    expect((await api.request('DELETE', open.message, { token: customer.token })).status).to.equal(200);
    expect((await api.get(`/v1/attachments/${String(open.id)}`, { token: customer.token })).status).to.equal(410);
    expect((await api.get(`/v1/attachments/${String(open.id)}/content`, { token: agent.token })).status).to.equal(410);
  });

  it('moves its Last-Modified when a message takes it: If-Modified-Since sees the upload become an attachment', async () => {
    const id = await uploaded(api, customer.token, 'attached a minute later');
    const path = `/v1/attachments/${String(id)}`;
    const upload = await api.get(path, { token: customer.token });
    expect(obj(upload).message).to.equal(null);
    const since = upload.header('last-modified') ?? '';
    expect((await api.get(path, { token: customer.token, headers: { 'If-Modified-Since': since } })).status).to.equal(
      304,
    );
    api.clock.advance(60_000);
    const m = await api.post(
      `${ticketPath}/messages`,
      { body: 'file', attachment_ids: [id] },
      { token: customer.token },
    );
    expect(m.status, m.text).to.equal(201);
    const after = await api.get(path, { token: customer.token, headers: { 'If-Modified-Since': since } });
    expect(after.status, 'not 304: its message and ticket links are set now').to.equal(200);
    expect(obj(after).message).to.deep.include({ id: obj(m).id });
    expect(after.header('last-modified')).to.equal(new Date(Date.parse(obj(m).created_at as string)).toUTCString());
  });

  it('deletes (agents and admins): 204, then 410; the message lists it no more, in one message.updated event', async () => {
    const { id, message } = await attached(customer.token, 'to redact');
    expect((await api.request('DELETE', `/v1/attachments/${String(id)}`, { token: customer.token })).status).to.equal(
      403,
    );
    const seq = (await api.server.store.events.bounds()).newest;
    expect((await api.request('DELETE', `/v1/attachments/${String(id)}`, { token: agent.token })).status).to.equal(204);
    expect((await api.get(`/v1/attachments/${String(id)}`, { token: agent.token })).status).to.equal(410);
    expect(obj(await api.get(message, { token: customer.token })).attachments).to.deep.equal([]);
    const events = arr(await api.get(`/v1/events?after=${String(seq)}`, { token: admin }));
    expect(events.map((e) => e.type)).to.deep.equal(['message.updated']);
    expect((await api.request('DELETE', `/v1/attachments/${String(id)}`, { token: agent.token })).status).to.equal(410);
  });

  it('feeds message.created with the attachments', async () => {
    const { id } = await attached(customer.token, 'in the feed');
    const newest = (await api.server.store.events.bounds()).newest;
    const created = arr(await api.get(`/v1/events?after=${String(newest - 5)}`, { token: admin })).filter(
      (e) => e.type === 'message.created',
    );
    const data = created.at(-1)?.data as { attachments: { id: number }[] };
    expect(data.attachments.map((a) => a.id)).to.deep.equal([id]);
  });

  it('holds at most 50 unattached uploads per user: the 51st is 429 (42902)', async () => {
    const uploader = await api.userWithToken('customer', 'Many Files');
    for (let i = 0; i < 50; i += 1) await uploaded(api, uploader.token, `file ${String(i)}`);
    const a = await rawUpload(api, uploader.token, 'one too many', 'x.txt');
    expect([a.status, obj(a).code]).to.deep.equal([429, 42902]);
  });

  it('replays an upload with the same Idempotency-Key and bytes, and refuses the key with other bytes', async () => {
    const key = { 'Idempotency-Key': 'upload-1' };
    const first = await rawUpload(api, customer.token, 'same bytes', 'k.txt', key);
    const again = await rawUpload(api, customer.token, 'same bytes', 'k.txt', key);
    expect(again.header('idempotent-replayed')).to.equal('true');
    expect(obj(again).id).to.equal(obj(first).id);
    const changed = await rawUpload(api, customer.token, 'other bytes', 'k.txt', key);
    expect([changed.status, obj(changed).code]).to.deep.equal([422, 42250]);
  });

  it("an upload's name and declared type are part of what its Idempotency-Key fingerprints, as a JSON body's fields are", async () => {
    // Probed: the same bytes under the same key with another ?filename=, Content-Disposition or
    // Content-Type replayed the first upload (its name, its type): a retry that corrected the
    // name got the old one back silently. A raw upload's name and type travel beside its bytes.
    const key = { 'Idempotency-Key': 'upload-named' };
    const first = await rawUpload(api, customer.token, 'named bytes', 'first.txt', {
      ...key,
      'Content-Type': 'text/plain',
    });
    expect(first.status, first.text).to.equal(201);
    const same = await rawUpload(api, customer.token, 'named bytes', 'first.txt', {
      ...key,
      'Content-Type': 'text/plain',
    });
    expect([same.status, same.header('idempotent-replayed'), obj(same).id]).to.deep.equal([201, 'true', obj(first).id]);
    for (const [what, filename, headers] of [
      ['another ?filename=', 'second.txt', { 'Content-Type': 'text/plain' }],
      ['another declared type', 'first.txt', { 'Content-Type': 'text/csv' }],
      [
        'a Content-Disposition name',
        'first.txt',
        { 'Content-Type': 'text/plain', 'Content-Disposition': 'attachment; filename="third.txt"' },
      ],
    ] as const) {
      const other = await rawUpload(api, customer.token, 'named bytes', filename, { ...key, ...headers });
      expect([other.status, obj(other).code], what).to.deep.equal([422, 42250]);
    }
  });

  it('answers 409 (40902, Retry-After: 1) to an upload whose key a still-streaming upload holds, then replays', async () => {
    const key = 'upload-streaming';
    const bytes = Buffer.from('first half|second half');
    const open = request(`${api.server.url}/v1/uploads?filename=slow.txt`, {
      method: 'POST',
      rejectUnauthorized: false,
      agent: false,
      headers: {
        Authorization: `Bearer ${customer.token}`,
        'Content-Type': 'text/plain',
        'Content-Length': String(bytes.length),
        'Idempotency-Key': key,
      },
    });
    const first = new Promise<{ status: number; text: string }>((resolve, reject) => {
      open.on('response', (res) => {
        resolve(text(res));
      });
      open.on('error', reject);
    });
    open.write(bytes.subarray(0, 10));
    // The first upload's headers reach the service and its body waits for the rest.
    await new Promise((r) => setTimeout(r, 500));
    const second = await rawUpload(api, customer.token, bytes, 'slow.txt', {
      'Content-Type': 'text/plain',
      'Idempotency-Key': key,
    });
    expect([second.status, obj(second).code, second.header('retry-after')], second.text).to.deep.equal([
      409,
      40902,
      '1',
    ]);
    open.end(bytes.subarray(10));
    const done = await first;
    expect(done.status, done.text).to.equal(201);
    const again = await rawUpload(api, customer.token, bytes, 'slow.txt', {
      'Content-Type': 'text/plain',
      'Idempotency-Key': key,
    });
    expect([again.status, again.header('idempotent-replayed'), obj(again).id]).to.deep.equal([
      201,
      'true',
      (JSON.parse(done.text) as { id: number }).id,
    ]);
  });

  it('needs tickets:write to upload and tickets:read to read', async () => {
    const { id } = await attached(customer.token, 'scoped');
    const made = await api.post(
      '/v1/users/me/tokens',
      { name: 'reader', scopes: ['tickets:read'] },
      { token: customer.token },
    );
    const reader = obj(made).token as string;
    expect((await rawUpload(api, reader, 'x', 'x.txt')).status).to.equal(403);
    expect((await api.get(`/v1/attachments/${String(id)}/content`, { token: reader })).status).to.equal(200);
  });
});
