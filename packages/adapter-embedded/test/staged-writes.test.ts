import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobFiles } from '../src/blob-files.js';
import {
  idleWriteBuffers,
  maxIdleWriteBuffers,
  stagedWrites,
  writeBufferBytes,
  writeBuffers,
  type WriteBuffers,
} from '../src/staged-writes.js';

// An upload's bytes on their way to its staging file (staged-writes.ts): copied into write
// buffers of 256 KiB, written whole, and the buffers reused from upload to upload.

/** A pool that counts what it hands out and gets back. */
const counted = (keep: number): WriteBuffers & { taken: () => number; given: () => number; made: () => number } => {
  const pool = writeBuffers(keep);
  const seen = new Set<Buffer>();
  let taken = 0;
  let given = 0;
  return {
    take: () => {
      taken += 1;
      const b = pool.take();
      seen.add(b);
      return b;
    },
    give: (b) => {
      given += 1;
      pool.give(b);
    },
    idle: pool.idle,
    taken: () => taken,
    given: () => given,
    made: () => seen.size,
  };
};

describe('Embedded store: staged writes', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'staged-writes-'));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes `chunks` through `pool` into a new file; answers its bytes. */
  const written = async (name: string, chunks: readonly Uint8Array[], pool: WriteBuffers): Promise<Buffer> => {
    const path = join(dir, name);
    const fh = await open(path, 'wx');
    try {
      const writes = stagedWrites(fh, pool);
      for (const chunk of chunks) await writes.add(chunk);
      await writes.finish();
    } finally {
      await fh.close();
    }
    return readFileSync(path);
  };

  it('writes every byte in order, whatever the chunks: empty ones, ones across a buffer, one larger than three', async () => {
    const sizes = [0, 1, 16_384, writeBufferBytes - 16_385, 2, 0, 3 * writeBufferBytes + 7, 16_384, 5];
    let n = 0;
    const chunks = sizes.map((size) => Uint8Array.from({ length: size }, () => (n = (n * 31 + 7) % 251)));
    const pool = counted(8);
    const bytes = await written('orders.bin', chunks, pool);
    expect(bytes.equals(Buffer.concat(chunks))).to.equal(true);
    expect(pool.given(), 'every buffer taken was given back').to.equal(pool.taken());
  });

  it('reuses its buffers: a second and a third upload make no new one', async () => {
    const pool = counted(8);
    const mib = Array.from({ length: 64 }, (_, i) => Buffer.alloc(16_384, i));
    await written('first.bin', mib, pool);
    const made = pool.made();
    expect(made).to.be.within(1, 2);
    const second = await written('second.bin', mib, pool);
    await written('third.bin', mib, pool);
    expect(pool.made()).to.equal(made);
    expect(second.equals(Buffer.concat(mib))).to.equal(true);
  });

  it('keeps at most its number of idle buffers', () => {
    const pool = writeBuffers(2);
    const held = [pool.take(), pool.take(), pool.take()];
    for (const b of held) pool.give(b);
    expect(pool.idle()).to.equal(2);
    expect(held.every((b) => b.length === writeBufferBytes)).to.equal(true);
  });

  it('a write that fails rejects the upload, and its buffers go back once it has settled', async () => {
    const fh = await open(join(dir, 'closed.bin'), 'wx');
    await fh.close();
    const pool = counted(8);
    const writes = stagedWrites(fh, pool);
    let error: unknown = null;
    try {
      for (let i = 0; i < 40; i += 1) await writes.add(Buffer.alloc(16_384, 1));
      await writes.finish();
    } catch (e) {
      error = e;
    }
    await writes.settled();
    expect(error).to.be.instanceOf(Error);
    expect(pool.given()).to.equal(pool.taken());
  });

  describe('the buffers kept, sized from how many uploads are read at once (UPLOAD_CONCURRENCY)', () => {
    /**
     * Stages `uploads` uploads at once in a blob store told `uploadsAtOnce`, each holding a
     * buffer until all hold one; answers how many buffers it keeps idle once they are done.
     */
    const keptAfter = async (uploadsAtOnce: number, uploads: number): Promise<number> => {
      const dataDir = join(dir, `kept-${String(uploadsAtOnce)}-${String(uploads)}`);
      const blobs = blobFiles(dataDir, uploadsAtOnce);
      blobs.clearStaging();
      let arrived = 0;
      let allArrived = (): void => undefined;
      const all = new Promise<void>((resolve) => (allArrived = resolve));
      async function* oneByte(i: number): AsyncIterable<Uint8Array> {
        yield Uint8Array.of(i);
        // Asked for more: the byte is in this upload's buffer.
        arrived += 1;
        if (arrived === uploads) allArrived();
        await all;
      }
      const outcomes = await Promise.all(Array.from({ length: uploads }, (_, i) => blobs.stage(oneByte(i), 10)));
      for (const o of outcomes) if (o.kind === 'staged') await o.blob.discard();
      return blobs.idleWriteBuffers();
    };

    it('keeps two for each upload read at once (six: 12, where a fixed 8 used to be kept)', async () => {
      expect(await keptAfter(6, 12)).to.equal(12);
      expect(await keptAfter(1, 5)).to.equal(2);
    });

    it('keeps at most 32 (8 MiB), whatever the setting', async () => {
      expect(await keptAfter(1000, 40)).to.equal(maxIdleWriteBuffers);
      expect([idleWriteBuffers(4), idleWriteBuffers(16), idleWriteBuffers(17), idleWriteBuffers(0)]).to.deep.equal([
        8, 32, 32, 2,
      ]);
    });
  });
});
