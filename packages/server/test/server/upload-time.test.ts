import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { blobFilesIn, blobFilesSettled } from './child.js';
import { embeddedSuite } from './embedded-suite.js';
import { sending as sendingTo, type Sending } from './sending.js';

// How long a request may take to arrive (REQUEST_TIMEOUT_S, UPLOAD_MIN_BYTES_PER_S; docs/attachments.md
// "Many uploads at once"), against the real process over HTTPS, with uploads read one at a time
// (UPLOAD_CONCURRENCY=1) and a one-second bound: an upload that waits its turn too long gets a 503
// with Retry-After, one sent too slowly a 408, both as JSON before the connection closes, and
// nothing of either is kept; an upload slower than the bound but above the rate is not cut off.

const admin = 'upload-time-admin-1';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('server: the time a request may take to arrive (REQUEST_TIMEOUT_S=1, UPLOAD_CONCURRENCY=1)', function () {
  this.timeout(60_000);
  const service = embeddedSuite('upload-time', {
    ADMIN_PASSWORD: admin,
    UPLOAD_CONCURRENCY: '1',
    UPLOAD_MAX_BYTES: String(2 ** 34),
    REQUEST_TIMEOUT_S: '1',
    UPLOAD_MIN_BYTES_PER_S: '1024',
  });

  /** A request whose body the test sends piece by piece. */
  const sending = (path: string, length: number, contentType?: string): Sending =>
    sendingTo(service.child, service.token, path, length, contentType);
  /** The blob files the embedded store holds (kept and being received). */
  const blobFiles = (): string[] => blobFilesIn(service.dataDir);
  /** Waits (5 s at most) until the blob files are `expected` again. */
  const blobsBecome = async (what: string, expected: readonly string[]): Promise<void> => {
    expect(await blobFilesSettled(service.dataDir, expected), what).to.deep.equal(expected);
  };

  it('answers 503 (50305) with Retry-After to an upload that waited 1 s for its turn, and keeps nothing of it', async () => {
    const before = blobFiles();
    // The one slot, and the line for it: three uploads whose clients send as fast as the service
    // reads. Each keeps the kernel's buffers full, so the slot passes among them (one that pauses
    // 50 ms lets the next in, and goes ahead of the new upload when its bytes come again).
    const piece = Buffer.alloc(1024 * 1024, 7);
    const holders = [0, 1, 2].map((i) => sending(`/v1/uploads?filename=holder-${i}.bin`, 2 ** 33));
    const state = { holding: true };
    const holdersSend = holders.map(async (h) => {
      void h.answer.catch(() => undefined);
      while (state.holding && !h.closed()) await h.write(piece);
    });
    await sleep(300);
    const file = Buffer.alloc(256 * 1024, 9);
    const waiter = sending('/v1/uploads?filename=waiter.bin', file.length);
    await waiter.write(file);
    const answer = await waiter.answer;
    state.holding = false;
    for (const h of holders) h.stop();
    await Promise.all(holdersSend);
    expect(answer.status, answer.text).to.equal(503);
    expect(answer.json).to.include({ code: 50305, message: 'Too many uploads at once' });
    expect(answer.headers['retry-after']).to.equal('10');
    expect(answer.headers.connection).to.equal('close');
    expect(answer.headers['content-type']).to.match(/^application\/json/);
    expect(answer.ms, 'answered once it had waited its 1 s').to.be.within(900, 15_000);
    await blobsBecome('nothing of either upload is kept', before);
  });

  it('answers 408 to an upload sent slower than UPLOAD_MIN_BYTES_PER_S, and keeps nothing of it', async () => {
    const before = blobFiles();
    const slow = sending('/v1/uploads?filename=slow.bin', 64 * 1024);
    await slow.write(Buffer.alloc(512, 1));
    const answer = await slow.answer;
    expect(answer.status, answer.text).to.equal(408);
    expect(answer.json).to.include({ code: 40801 });
    expect(answer.headers['content-type']).to.match(/^application\/json/);
    expect(answer.headers.connection).to.equal('close');
    // 1 s, plus 0.5 s earned by 512 bytes at 1 KiB/s.
    expect(answer.ms).to.be.within(1_400, 15_000);
    await blobsBecome('nothing of the upload is kept', before);
  });

  it('answers 408 to a multipart upload that stops half-way, and keeps nothing of it', async () => {
    const before = blobFiles();
    const boundary = 'half-way-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const half = sending('/v1/uploads', 64 * 1024, `multipart/form-data; boundary=${boundary}`);
    await half.write(Buffer.concat([head, Buffer.alloc(2 * 1024, 5)]));
    const answer = await half.answer;
    expect(answer.status, answer.text).to.equal(408);
    expect(answer.json).to.include({ code: 40801 });
    // Its bytes were being written when the connection closed: the staged file goes.
    await blobsBecome('nothing of the upload is kept', before);
  });

  it('lets an upload take longer than REQUEST_TIMEOUT_S while it sends faster than UPLOAD_MIN_BYTES_PER_S', async () => {
    const file = Buffer.alloc(24 * 1024, 3);
    const steady = sending('/v1/uploads?filename=steady.bin', file.length);
    for (let at = 0; at < file.length; at += 1024) {
      await steady.write(file.subarray(at, at + 1024));
      await sleep(100);
    }
    const answer = await steady.answer;
    expect(answer.status, answer.text).to.equal(201);
    expect(answer.ms, 'longer than REQUEST_TIMEOUT_S').to.be.above(2_000);
    const sha256 = createHash('sha256').update(file).digest('hex');
    expect(answer.json).to.include({ size: file.length, sha256 });
    // The kept file is where the other tests look for what was (not) kept.
    expect(blobFiles(), 'the kept upload among the blob files').to.include(sha256);
  });

  it('answers 408 to a JSON body that stops half-way, after REQUEST_TIMEOUT_S', async () => {
    const half = sending('/v1/tickets', 100, 'application/json');
    await half.write(Buffer.from('{"subject": "half'));
    const answer = await half.answer;
    expect(answer.status, answer.text).to.equal(408);
    expect(answer.json).to.include({ code: 40801 });
    expect(answer.ms).to.be.within(900, 15_000);
  });
});
