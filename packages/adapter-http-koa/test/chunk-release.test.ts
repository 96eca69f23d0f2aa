import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeChunk } from '../src/conventions/chunk-release.js';

// An upload's chunk freed once the blob store has its bytes (conventions/chunk-release.ts): the
// memory goes back at once, not at V8's next collection; a chunk that shares its buffer is
// left alone.

const MiB = 1024 * 1024;
const arrayBuffers = (): number => process.memoryUsage().arrayBuffers;

describe('Upload chunks freed once stored', () => {
  it('frees 32 MiB of chunks that own their buffers without a collection, and they read as empty', async () => {
    freeChunk(new Uint8Array(16_384)); // the first use opens the port (its other end closes a turn later)
    await sleep(20);
    const chunks = Array.from({ length: 2048 }, () => Buffer.from(new Uint8Array(16_384).fill(1).buffer));
    const before = arrayBuffers();
    for (const chunk of chunks) freeChunk(chunk);
    const after = arrayBuffers();
    expect(before - after).to.be.at.least(32 * MiB);
    expect(chunks.every((c) => c.length === 0)).to.equal(true);
  });

  it('leaves a slice of a larger buffer as it is (a multipart part, node pool bytes)', () => {
    const whole = new Uint8Array(32_768).fill(7);
    const slice = whole.subarray(16_384);
    const pooled = Buffer.from('a few bytes from the pool');
    freeChunk(slice);
    freeChunk(pooled);
    expect(slice.length).to.equal(16_384);
    expect(whole.every((b) => b === 7)).to.equal(true);
    expect(pooled.toString()).to.equal('a few bytes from the pool');
  });
});
