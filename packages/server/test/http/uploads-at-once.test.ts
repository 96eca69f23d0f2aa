import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:https';
import { suiteApi } from '../support/suite-api.js';
import { obj } from '../support/resources.js';
import { multipart, rawUpload } from '../support/uploads.js';

// UPLOAD_CONCURRENCY (docs/configuration.md): how many upload bodies the service reads at once.
// Over HTTPS with the bound at 1: uploads sent together all succeed, each with its own bytes;
// a client that stops half-way does not hold the others back, and finishes when it goes on.

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('HTTP: uploads read one at a time (UPLOAD_CONCURRENCY=1)', function () {
  this.timeout(60_000);
  let token: string;

  const api = suiteApi({ UPLOAD_CONCURRENCY: '1', UPLOAD_MAX_BYTES: String(4 * 1024 * 1024) });
  before(async () => {
    token = (await api.userWithToken('agent', 'Ada Lovelace')).token;
  });

  it('answers 201 to every one of eight uploads sent at once, each with its own bytes', async () => {
    const files = Array.from({ length: 8 }, () => randomBytes(512 * 1024));
    const answers = await Promise.all(files.map((f, i) => rawUpload(api, token, f, `part-${i}.bin`)));
    expect(answers.map((a) => a.status)).to.deep.equal(Array<number>(8).fill(201));
    expect(answers.map((a) => obj(a).sha256)).to.deep.equal(files.map(sha));
    expect(answers.map((a) => obj(a).size)).to.deep.equal(Array<number>(8).fill(512 * 1024));
  });

  it('answers 201 to multipart uploads sent at once with Idempotency-Keys, each with its own bytes', async () => {
    const files = Array.from({ length: 4 }, () => randomBytes(300 * 1024));
    const answers = await Promise.all(
      files.map((f, i) => {
        const { body, contentType } = multipart([
          { name: 'note', bytes: 'a field before the file' },
          { name: 'file', filename: `form-${i}.bin`, type: 'application/octet-stream', bytes: f },
        ]);
        return api.request('POST', '/v1/uploads', {
          token,
          headers: { 'Content-Type': contentType, 'Idempotency-Key': `form-${i}` },
          body,
        });
      }),
    );
    expect(answers.map((a) => a.status)).to.deep.equal([201, 201, 201, 201]);
    expect(answers.map((a) => obj(a).sha256)).to.deep.equal(files.map(sha));
  });

  it('does not let a client that stops half-way hold another upload back', async () => {
    const file = randomBytes(256 * 1024);
    let answered: (v: { status: number; body: string }) => void = () => undefined;
    const slow = new Promise<{ status: number; body: string }>((resolve) => (answered = resolve));
    const req = request(
      `${api.server.url}/v1/uploads?filename=slow.bin`,
      {
        method: 'POST',
        rejectUnauthorized: false,
        agent: false,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(file.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          answered({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', () => undefined);
    // The first half sent (and given time to be read: the upload holds the one slot), the client
    // pauses; another upload goes through meanwhile.
    await new Promise<void>((resolve, reject) => {
      req.write(file.subarray(0, 128 * 1024), (e) => {
        if (e === undefined || e === null) resolve();
        else reject(e);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const other = await rawUpload(api, token, Buffer.from('sent while the other waits'), 'quick.txt');
    expect(other.status, other.text).to.equal(201);
    req.end(file.subarray(128 * 1024));
    const done = await slow;
    expect(done.status, done.body).to.equal(201);
    expect(JSON.parse(done.body)).to.include({ size: file.length, sha256: sha(file) });
  });
});
