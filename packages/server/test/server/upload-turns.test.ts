import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { embeddedSuite } from './embedded-suite.js';
import { sending } from './sending.js';

// Slow uploads take turns (docs/attachments.md "Many uploads at once"), against the real process
// over HTTPS with its default four slots (UPLOAD_CONCURRENCY): clients that trickle a few bytes
// at a time hold every slot, and an upload sent at full speed meanwhile must still get its turn
// within a few seconds, not when they finish. Both seen failing on the code before (the fast
// upload waited until the tricklers finished: 9.9 s and 10.6 s).

const admin = 'upload-turns-admin-1';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
/** What a trickling client sends at a time (far under UPLOAD_MIN_BYTES_PER_S: REQUEST_TIMEOUT_S covers it). */
const piece = 256;

describe('server: slow uploads take turns with a fast one (UPLOAD_CONCURRENCY=4, REQUEST_TIMEOUT_S=60)', function () {
  this.timeout(90_000);
  const service = embeddedSuite('upload-turns', {
    ADMIN_PASSWORD: admin,
    UPLOAD_CONCURRENCY: '4',
    REQUEST_TIMEOUT_S: '60',
  });

  /**
   * `count` clients each sending `bytes` random bytes, `piece` bytes every `gapMs`; resolves to
   * their answers once all have answered (each checked: 201 with its own bytes).
   */
  const trickle = (count: number, gapMs: number, bytes: number) => {
    const files = Array.from({ length: count }, () => randomBytes(bytes));
    const uploads = files.map((f, i) =>
      sending(service.child, service.token, `/v1/uploads?filename=trickle-${i}.bin`, f.length),
    );
    const sent = uploads.map(async (u, i) => {
      const file = files[i] ?? Buffer.alloc(0);
      for (let at = 0; at < file.length && !u.closed(); at += piece) {
        await u.write(file.subarray(at, at + piece));
        await sleep(gapMs);
      }
    });
    return (async () => {
      await Promise.all(sent);
      const answers = await Promise.all(uploads.map((u) => u.answer));
      expect(answers.map((a) => a.status)).to.deep.equal(Array<number>(count).fill(201));
      expect(answers.map((a) => (a.json as { sha256: string }).sha256)).to.deep.equal(files.map(sha));
      return answers;
    })();
  };
  /** A 1 MiB upload sent at once: its answer. */
  const fastUpload = async () => {
    const file = randomBytes(1024 * 1024);
    const fast = sending(service.child, service.token, '/v1/uploads?filename=fast.bin', file.length);
    await fast.write(file);
    const answer = await fast.answer;
    expect(answer.status, answer.text).to.equal(201);
    expect((answer.json as { sha256: string }).sha256).to.equal(sha(file));
    return answer;
  };

  it('answers a fast upload within 5 s while four clients trickle 256 bytes every 20 ms into every slot', async () => {
    // 20 ms apart: none ever pauses the 50 ms that gives a slot up. 512 pieces: 10 s and more.
    const tricklers = trickle(4, 20, 128 * 1024);
    await sleep(500);
    const fast = await fastUpload();
    expect(fast.ms, 'the fast upload waited for its turn no longer than a time slice or so').to.be.below(5_000);
    const slow = await tricklers;
    // They were still sending when the fast one was answered: it did not merely come after them.
    expect(Math.min(...slow.map((a) => a.ms))).to.be.above(fast.ms + 500);
  });

  it('answers a fast upload within 5 s while sixteen clients pausing past the stall (55 ms) pass the four slots around', async () => {
    // Each gives its slot up 50 ms after its last piece and asks again 5 ms later: slow uploads
    // queue behind the others (before, they went ahead of every upload not started yet, and
    // sixteen of them kept the four slots among themselves). 192 pieces: 10 s and more.
    const tricklers = trickle(16, 55, 48 * 1024);
    await sleep(500);
    const fast = await fastUpload();
    expect(fast.ms, 'the fast upload waited for its turn no longer than a time slice or so').to.be.below(5_000);
    const slow = await tricklers;
    expect(Math.min(...slow.map((a) => a.ms))).to.be.above(fast.ms + 500);
  });
});
