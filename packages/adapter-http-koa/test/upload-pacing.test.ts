import { expect } from 'chai';
import { PassThrough, type Readable } from 'node:stream';
import { uploadPacer } from '../src/conventions/upload-pacing.js';

// Upload bodies share a pace (conventions/upload-pacing.ts): all uploads together take at most
// `bytesPerTurn` bytes in one turn of the event loop, each chunk as it arrived.

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A stream holding `chunks` already (ended), as a request body whose bytes have all arrived. */
const arrived = (chunks: Buffer[]): PassThrough => {
  const stream = new PassThrough();
  for (const c of chunks) stream.write(c);
  stream.end();
  return stream;
};

const chunkOf = (byte: number, size: number): Buffer => Buffer.alloc(size, byte);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A stream that gets 10 bytes every 10 ms for `ms`, then ends; resolves to the bytes read through `pacer`. */
const trickling = (pacer: ReturnType<typeof uploadPacer>, ms: number): Promise<number> => {
  const stream = new PassThrough();
  void (async () => {
    for (let t = 0; t < ms; t += 10) {
      stream.write(chunkOf(1, 10));
      await sleep(10);
    }
    stream.end();
  })();
  return (async () => {
    let total = 0;
    for await (const c of pacer.paced(stream)) total += c.length;
    return total;
  })();
};
/** How long reading `stream` through `pacer` takes, in ms. */
const timeToRead = async (pacer: ReturnType<typeof uploadPacer>, stream: Readable): Promise<number> => {
  const started = performance.now();
  for await (const c of pacer.paced(stream)) expect(c.length).to.be.above(0);
  return performance.now() - started;
};

describe('upload pacing', () => {
  it('hands over every chunk of a stream unchanged, in order, neither split nor joined', async () => {
    const chunks = [chunkOf(1, 1000), chunkOf(2, 3), chunkOf(3, 70_000), chunkOf(4, 1)];
    const got: Buffer[] = [];
    for await (const c of uploadPacer({ bytesPerTurn: 10_000 }).paced(arrived(chunks))) got.push(c);
    expect(got.map((c) => c.length)).to.deep.equal([1000, 3, 70_000, 1]);
    expect(Buffer.concat(got).equals(Buffer.concat(chunks))).to.equal(true);
  });

  it('lets all streams together take at most the pace in one turn (a chunk started is finished)', async () => {
    const pacer = uploadPacer({ bytesPerTurn: 4096, concurrent: 5 });
    let turn = 0;
    const counting = { on: true };
    void (async () => {
      while (counting.on) {
        await nextTurn();
        turn += 1;
      }
    })();
    const perTurn = new Map<number, number>();
    const read = async (stream: Readable): Promise<number> => {
      let total = 0;
      for await (const c of pacer.paced(stream)) {
        perTurn.set(turn, (perTurn.get(turn) ?? 0) + c.length);
        total += c.length;
      }
      return total;
    };
    const streams = Array.from({ length: 5 }, (_, i) => arrived(Array.from({ length: 20 }, () => chunkOf(i, 1024))));
    const totals = await Promise.all(streams.map(read));
    counting.on = false;
    expect(totals).to.deep.equal([20_480, 20_480, 20_480, 20_480, 20_480]);
    // 100 KiB at 4 KiB a turn: spread over many turns, none over the pace by more than a chunk.
    expect(perTurn.size).to.be.at.least(20);
    for (const [, bytes] of perTurn) expect(bytes).to.be.at.most(4096 + 1024);
  });

  it('passes a stream error on to the reader', async () => {
    const stream = new PassThrough();
    stream.write(chunkOf(1, 10));
    setImmediate(() => stream.destroy(new Error('aborted by the client')));
    const reading = (async () => {
      for await (const c of uploadPacer().paced(stream)) expect(c.length).to.equal(10);
    })();
    let failure: unknown = null;
    await reading.catch((e: unknown) => (failure = e));
    expect((failure as Error | null)?.message).to.equal('aborted by the client');
  });

  it('leaves a stream it stops reading early paused, not destroyed (the rest can still be drained)', async () => {
    const stream = arrived([chunkOf(1, 10), chunkOf(2, 10), chunkOf(3, 10)]);
    for await (const c of uploadPacer().paced(stream)) {
      expect(c[0]).to.equal(1);
      break;
    }
    expect(stream.destroyed).to.equal(false);
    expect(stream.isPaused()).to.equal(true);
    const rest: Buffer[] = [];
    stream.on('data', (c: Buffer) => rest.push(c));
    stream.resume();
    await new Promise((resolve) => stream.once('end', resolve));
    expect(Buffer.concat(rest).length).to.equal(20);
  });

  it('gives the slot of a slow stream to a waiting one once its time slice is over; the slow one finishes after', async () => {
    const pacer = uploadPacer({ concurrent: 1, sliceMs: 100, floorBytesPerSecond: 1024 * 1024 });
    // 1 KB/s for 1.5 s, never pausing the 50 ms that gives a slot up: it holds the one slot.
    const slow = trickling(pacer, 1500);
    await sleep(30);
    const waited = await timeToRead(pacer, arrived([chunkOf(2, 64 * 1024), chunkOf(2, 64 * 1024)]));
    expect(pacer.usage().held, 'the slow stream holds its slot again').to.equal(1);
    expect(waited, 'read after the time slice of the slow one (100 ms), not after its 1.5 s').to.be.below(1000);
    expect(await slow).to.equal(1500);
    expect(pacer.usage()).to.deep.equal({ held: 0, waiting: 0 });
  });

  it('keeps the slot of a stream receiving at least the floor rate, however long it holds it', async () => {
    const pacer = uploadPacer({ concurrent: 1, sliceMs: 100, floorBytesPerSecond: 100 });
    const slow = trickling(pacer, 600);
    await sleep(30);
    const waited = await timeToRead(pacer, arrived([chunkOf(2, 1024)]));
    expect(waited, 'read only once the 1 KB/s stream (over the 100 B/s floor) ended').to.be.above(450);
    expect(await slow).to.equal(600);
  });
});
