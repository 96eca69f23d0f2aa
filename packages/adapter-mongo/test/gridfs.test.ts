import { expect } from 'chai';
import { Binary, ObjectId } from 'mongodb';
import { engineStore } from './support/mingo-engine.js';

// The GridFS blob store beyond the BlobStore contract (which runs on the engine too): an upload
// whose process died half way leaves chunks without a files document; the sweep lists them once
// older than its grace period and erases them. The driver's own GridFSBucket code runs on the
// engine's collections, chunk by chunk.

async function* chunks(b: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < b.length; i += size) yield await Promise.resolve(b.subarray(i, i + size));
}

describe('MongoDB adapter: GridFS bytes', () => {
  it('streams a file of several GridFS chunks in and out, and a range across a chunk boundary', async () => {
    const store = engineStore();
    const bytes = Buffer.alloc(600 * 1024);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7) % 251;
    const staged = await store.blobs.stage(chunks(bytes, 10_000), 1 << 20);
    if (staged.kind !== 'staged') throw new Error('not staged');
    const held = await staged.blob.keep();
    held.release();
    const docs = store.engine.collection('blobChunks').docs;
    expect(docs.filter((d) => String(d['files_id']) === held.key)).to.have.length(3);
    const read = async (range?: { start: number; end: number }) => {
      const parts: Buffer[] = [];
      for await (const c of (await store.blobs.open(held.key, range)) ?? []) parts.push(Buffer.from(c));
      return Buffer.concat(parts);
    };
    expect((await read()).equals(bytes)).to.equal(true);
    const start = 255 * 1024 - 10;
    expect((await read({ start, end: start + 19 })).equals(bytes.subarray(start, start + 20))).to.equal(true);
  });

  it('lists the chunks of an upload that never finished once older than the grace period, and erases them', async () => {
    const store = engineStore();
    const old = ObjectId.createFromTime(Math.floor(Date.now() / 1000) - 3600);
    const fresh = new ObjectId();
    for (const id of [old, fresh])
      await store.engine.collection('blobChunks').insertOne({ files_id: id, n: 0, data: new Binary(Buffer.from('x')) });
    const orphans = await store.blobs.orphans(() => Promise.resolve(false), 60_000);
    expect(orphans).to.deep.equal([old.toHexString()]);
    expect(await store.blobs.erase(old.toHexString(), () => Promise.resolve(false))).to.equal(true);
    expect(store.engine.collection('blobChunks').docs.map((d) => String(d['files_id']))).to.deep.equal([
      fresh.toHexString(),
    ]);
  });
});
