import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeChunk } from '../src/conventions/chunk-release.js';
import { readUpload } from '../src/conventions/upload-body.js';
import { uploadPacer } from '../src/conventions/upload-pacing.js';
import type { AppContext } from '../src/state.js';

// An upload's chunk freed once the blob store has its bytes (conventions/chunk-release.ts): the
// memory goes back at once, not at V8's next collection; a chunk that shares its buffer is
// left alone. A multipart body's file chunks (busboy's slices of the request's chunks) are freed
// when they are a request chunk whole, and the file and the body's hash stay as sent.

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

describe('Multipart upload chunks freed once stored', () => {
  const boundary = 'x-boundary-7MA4YWxkTrZu0gW';
  const needle = Buffer.from(`\r\n--${boundary}`);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nskipped\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="trace.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="after"\r\n\r\nalso skipped\r\n--${boundary}--\r\n`,
  );

  /** 1 MiB of file bytes with parts of the boundary in them, some across the 16 KiB request chunks. */
  const fileBytes = (): Buffer => {
    const file = Buffer.alloc(1 << 20);
    let n = 7;
    for (let i = 0; i < file.length; i += 1) file[i] = n = (n * 1103515245 + 12345) & 0xff;
    for (let at = 1000; at + needle.length < file.length; at += 9_973)
      needle.copy(file, at, 0, 1 + (at % (needle.length - 1)));
    // A near-boundary at the end of the 5th and the 9th request chunks: their tails are held back.
    needle.copy(file, 5 * 16_384 - head.length - 3, 0, 3);
    needle.copy(file, 9 * 16_384 - head.length - 1, 0, 1);
    return file;
  };

  /** `body` cut into request chunks of `size` bytes (the last one shorter), each in a buffer of its own, as node's HTTP parser hands them over. */
  const requestChunks = (body: Buffer, size: (i: number) => number): Buffer[] => {
    const out: Buffer[] = [];
    for (let at = 0, i = 0; at < body.length; i += 1) {
      const end = Math.min(body.length, at + size(i));
      out.push(Buffer.from(new Uint8Array(body.subarray(at, end)).buffer));
      at = end;
    }
    return out;
  };

  /** Uploads `chunks` through readUpload as a multipart request, copying and releasing each file chunk as the blob store does. */
  const upload = async (chunks: Buffer[], key: string | null) => {
    const req = Object.assign(new PassThrough(), {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
      complete: true,
    });
    const ctx = {
      req,
      query: {},
      state: { streamedKey: key },
      request: { is: (type: string) => type },
      get: (name: string) => (name.toLowerCase() === 'content-type' ? req.headers['content-type'] : ''),
    } as unknown as AppContext;
    for (const c of chunks) req.write(c);
    req.end();
    const body = await readUpload(ctx, 2 << 20, uploadPacer());
    const stored: Buffer[] = [];
    for await (const chunk of body.source) {
      stored.push(Buffer.from(chunk));
      body.release(chunk);
    }
    return { stored: Buffer.concat(stored), bodyHash: key === null ? null : body.bodyHash('') };
  };

  const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

  it('frees the request chunks that hold file bytes only; the file and the body hash stay whole', async () => {
    const file = fileBytes();
    const body = Buffer.concat([head, file, tail]);
    const chunks = requestChunks(body, () => 16_384);
    const { stored, bodyHash } = await upload(chunks, 'a-key');
    expect(stored.equals(file), 'the file as sent').to.equal(true);
    expect(bodyHash, 'the request body hash (Idempotency-Key)').to.equal(sha256(body));
    const freed = chunks.map((c) => c.length === 0);
    expect(freed[0], 'the chunk with the part headers').to.equal(false);
    expect(freed.at(-1), 'the chunk with the closing boundary').to.equal(false);
    expect(freed[4], 'a chunk whose tail may be a boundary').to.equal(false);
    expect(freed[8], 'a chunk whose tail may be a boundary').to.equal(false);
    expect(freed.filter(Boolean).length, 'chunks freed of 65').to.be.at.least(55);
  });

  it('keeps every byte whatever the cut: chunks of 1 byte to 20 KB, boundaries across them', async () => {
    const file = fileBytes();
    const body = Buffer.concat([head, file, tail]);
    for (const seed of [1, 2, 3]) {
      let n = seed;
      const chunks = requestChunks(body, () => 1 + ((n = (n * 48271) % 2147483647) % 20_000));
      const { stored, bodyHash } = await upload(chunks, seed === 2 ? null : 'a-key');
      expect(stored.equals(file), `cut ${String(seed)}`).to.equal(true);
      if (seed !== 2) expect(bodyHash).to.equal(sha256(body));
    }
  });
});
