import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { BlobStore, StagedBlob } from '../src/index.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

async function* chunksOf(b: Buffer, size = 1000): AsyncIterable<Uint8Array> {
  for (let i = 0; i < b.length; i += size) yield await Promise.resolve(b.subarray(i, i + size));
}

const readAll = async (bytes: AsyncIterable<Uint8Array> | null): Promise<Buffer | null> => {
  if (bytes === null) return null;
  const parts: Buffer[] = [];
  for await (const c of bytes) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
};

/** Bytes that differ per call: a test's blobs never meet another test's. */
const someBytes = (n: number, seed: string): Buffer => {
  const out = Buffer.alloc(n);
  let block = Buffer.alloc(0);
  for (let i = 0; i < n; i++) {
    if (i % 32 === 0)
      block = createHash('sha256')
        .update(`${seed}:${String(i)}`)
        .digest();
    out[i] = block[i % 32] ?? 0;
  }
  return out;
};

const staged = async (blobs: BlobStore, b: Buffer, max = 1 << 20): Promise<StagedBlob> => {
  const s = await blobs.stage(chunksOf(b), max);
  if (s.kind !== 'staged') throw new Error(`expected the bytes staged, got ${s.kind}`);
  return s.blob;
};

const kept = async (blobs: BlobStore, b: Buffer): Promise<string> => {
  const held = await (await staged(blobs, b)).keep();
  held.release();
  return held.key;
};

const never = (): Promise<boolean> => Promise.resolve(false);
const always = (): Promise<boolean> => Promise.resolve(true);

/** The BlobStore port's promises (see its doc comments), for any store. */
export function describeBlobStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: BlobStore contract`, () => {
    const store = freshStorePerTest(makeStore);
    const blobs = () => store().blobs;

    it('stages bytes with their SHA-256 and size, and keeps them under a key that opens them again', async () => {
      const b = someBytes(70_000, 'whole');
      const s = await staged(blobs(), b);
      expect([s.sha256, s.size]).to.deep.equal([sha(b), b.length]);
      expect(await readAll(s.read())).to.deep.equal(b);
      const held = await s.keep();
      held.release();
      expect(await readAll(await blobs().open(held.key))).to.deep.equal(b);
    });

    it('opens an inclusive byte range, the first and the last byte included', async () => {
      const b = someBytes(10_000, 'range');
      const key = await kept(blobs(), b);
      expect(await readAll(await blobs().open(key, { start: 0, end: 0 }))).to.deep.equal(b.subarray(0, 1));
      expect(await readAll(await blobs().open(key, { start: 1234, end: 5678 }))).to.deep.equal(b.subarray(1234, 5679));
      expect(await readAll(await blobs().open(key, { start: 9999, end: 9999 }))).to.deep.equal(b.subarray(9999));
    });

    it('keeps an empty file', async () => {
      const key = await kept(blobs(), Buffer.alloc(0));
      expect(await readAll(await blobs().open(key))).to.deep.equal(Buffer.alloc(0));
    });

    it('takes exactly maxBytes, and answers too_large at one byte more', async () => {
      const b = someBytes(4096, 'limit');
      expect((await blobs().stage(chunksOf(b), 4096)).kind).to.equal('staged');
      expect((await blobs().stage(chunksOf(b), 4095)).kind).to.equal('too_large');
      expect(await blobs().orphans(never, 0)).to.deep.equal([]);
    });

    it('stops reading the source once it passed maxBytes', async () => {
      let pulled = 0;
      async function* endless(): AsyncIterable<Uint8Array> {
        for (;;) {
          pulled += 1;
          yield await Promise.resolve(Buffer.alloc(1000, 1));
        }
      }
      expect((await blobs().stage(endless(), 10_500)).kind).to.equal('too_large');
      expect(pulled).to.be.at.most(12);
    });

    it('leaves nothing of a discarded blob, nor of a source that failed half way', async () => {
      await (await staged(blobs(), someBytes(5000, 'discarded'))).discard();
      async function* failing(): AsyncIterable<Uint8Array> {
        yield await Promise.resolve(Buffer.alloc(1000, 2));
        throw new Error('the client went away');
      }
      let error: unknown = null;
      await blobs()
        .stage(failing(), 1 << 20)
        .catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(Error);
      expect(await blobs().orphans(never, 0)).to.deep.equal([]);
    });

    it('tells `taken` of a chunk only once it has its bytes: a source that wipes each chunk then keeps its file whole', async () => {
      const b = someBytes(600_000, 'taken');
      const told = new Set<Uint8Array>();
      async function* fresh(): AsyncIterable<Uint8Array> {
        for (let i = 0; i < b.length; i += 16_384) yield await Promise.resolve(Buffer.from(b.subarray(i, i + 16_384)));
      }
      const s = await blobs().stage(fresh(), 1 << 20, (chunk) => {
        expect(told.has(chunk), 'told twice of one chunk').to.equal(false);
        told.add(chunk);
        chunk.fill(0);
      });
      if (s.kind !== 'staged') throw new Error(`expected the bytes staged, got ${s.kind}`);
      expect([s.blob.sha256, s.blob.size]).to.deep.equal([sha(b), b.length]);
      const held = await s.blob.keep();
      held.release();
      expect(sha((await readAll(await blobs().open(held.key))) ?? Buffer.alloc(0))).to.equal(sha(b));
    });

    it('answers null for a key it never kept, and after the bytes were erased', async () => {
      const key = await kept(blobs(), someBytes(100, 'erased'));
      expect(await blobs().erase(key, never)).to.equal(true);
      expect(await blobs().open(key)).to.equal(null);
      expect(await blobs().erase(key, never)).to.equal(false);
    });

    it('does not erase bytes a record still names, nor bytes a keep still holds', async () => {
      const b = someBytes(100, 'held');
      const s = await staged(blobs(), b);
      const held = await s.keep();
      expect(await blobs().erase(held.key, never)).to.equal(false);
      held.release();
      expect(await blobs().erase(held.key, always)).to.equal(false);
      expect(await readAll(await blobs().open(held.key))).to.deep.equal(b);
    });

    it('keeps both copies of the same content readable, whatever the keys', async () => {
      const b = someBytes(3000, 'twice');
      const first = await kept(blobs(), b);
      const second = await kept(blobs(), b);
      // A store that shares the bytes (the same key) erases them only when nothing names them.
      if (first !== second) expect(await blobs().erase(first, never)).to.equal(true);
      expect(await readAll(await blobs().open(second))).to.deep.equal(b);
    });

    it('lists as orphans the kept blobs no record names and no keep holds', async () => {
      const named = await kept(blobs(), someBytes(200, 'named'));
      const orphan = await kept(blobs(), someBytes(200, 'orphan'));
      const holding = await (await staged(blobs(), someBytes(200, 'holding'))).keep();
      const orphans = await blobs().orphans((k) => Promise.resolve(k === named), 0);
      expect(orphans).to.include(orphan);
      expect(orphans).not.to.include(named);
      expect(orphans).not.to.include(holding.key);
      holding.release();
    });

    it('spares blobs kept within the grace period', async () => {
      const orphan = await kept(blobs(), someBytes(200, 'fresh'));
      expect(await blobs().orphans(never, 60_000)).not.to.include(orphan);
    });
  });
}
