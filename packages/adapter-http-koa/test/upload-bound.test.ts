import { expect } from 'chai';
import { PassThrough, type Readable } from 'node:stream';
import { uploadPacer } from '../src/conventions/upload-pacing.js';
import { uploadSlots } from '../src/conventions/upload-slots.js';

// How many uploads are read at once (UPLOAD_CONCURRENCY; conventions/upload-slots.ts and
// upload-pacing.ts): the others wait in arrival order, their bytes left unread; a client that
// pauses gives its slot to the next; one that goes away while waiting leaves nothing held.

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const chunkOf = (byte: number, size: number): Buffer => Buffer.alloc(size, byte);

/** A stream holding `chunks` already (ended), as a request body whose bytes have all arrived. */
const arrived = (chunks: Buffer[]): PassThrough => {
  const stream = new PassThrough();
  for (const c of chunks) stream.write(c);
  stream.end();
  return stream;
};

/** Reads `stream` through `pacer`, noting each chunk's first byte in `seen`; answers the bytes read. */
const reader = (pacer: ReturnType<typeof uploadPacer>, seen: number[]) => async (stream: Readable) => {
  let total = 0;
  for await (const c of pacer.paced(stream)) {
    seen.push(c[0] ?? -1);
    total += c.length;
  }
  return total;
};

describe('upload slots', () => {
  it('grants `limit` slots at once, then one per slot given back, in the order asked', async () => {
    const slots = uploadSlots(2);
    const order: string[] = [];
    const ask = (name: string, returning = false) => {
      const turn = slots.take(returning);
      void turn.granted.then(() => order.push(name));
      return turn;
    };
    ask('a');
    ask('b');
    ask('c');
    ask('d');
    ask('back', true);
    await nextTurn();
    expect(order).to.deep.equal(['a', 'b']);
    expect(slots.usage()).to.deep.equal({ held: 2, waiting: 3 });
    slots.give();
    await nextTurn();
    // An upload coming back after its client paused goes ahead of those not started.
    expect(order).to.deep.equal(['a', 'b', 'back']);
    slots.give();
    slots.give();
    await nextTurn();
    expect(order).to.deep.equal(['a', 'b', 'back', 'c', 'd']);
    expect(slots.usage()).to.deep.equal({ held: 2, waiting: 0 });
    slots.give();
    slots.give();
    expect(slots.usage()).to.deep.equal({ held: 0, waiting: 0 });
  });

  it('withdraws a request not granted yet (nothing held), and keeps one granted', async () => {
    const slots = uploadSlots(1);
    const first = slots.take(false);
    const second = slots.take(false);
    const third = slots.take(false);
    expect(second.cancel()).to.equal(true);
    slots.give();
    await third.granted;
    expect(first.cancel()).to.equal(false);
    expect(third.cancel()).to.equal(false);
    expect(slots.usage()).to.deep.equal({ held: 1, waiting: 0 });
  });

  it('refuses a bound that is not a count of at least 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => uploadSlots(bad), String(bad)).to.throw(RangeError);
  });
});

describe('upload pacing: at most `concurrent` uploads read at once', () => {
  it('with the bound at 1, reads none of a second upload before the first has ended, then all of it', async () => {
    const pacer = uploadPacer({ concurrent: 1, stallMs: 10_000 });
    const seen: number[] = [];
    const read = reader(pacer, seen);
    const first = new PassThrough();
    const second = arrived(Array.from({ length: 8 }, () => chunkOf(2, 1000)));
    const reading = [read(first), read(second)];
    // The first upload's bytes keep coming, a turn apart; the second's all wait, unread.
    for (let i = 0; i < 8; i += 1) {
      first.write(chunkOf(1, 1000));
      await nextTurn();
      await nextTurn();
      expect(second.readableLength, 'the second upload untouched').to.equal(8000);
    }
    expect(seen).to.deep.equal(Array<number>(8).fill(1));
    expect(pacer.usage()).to.deep.equal({ held: 1, waiting: 1 });
    first.end();
    expect(await Promise.all(reading)).to.deep.equal([8000, 8000]);
    expect(pacer.usage()).to.deep.equal({ held: 0, waiting: 0 });
    expect(seen).to.deep.equal([...Array<number>(8).fill(1), ...Array<number>(8).fill(2)]);
  });

  it('lets the next upload in while a client pauses, and the paused one finishes after', async () => {
    const pacer = uploadPacer({ concurrent: 1, stallMs: 20 });
    const seen: number[] = [];
    const read = reader(pacer, seen);
    const slow = new PassThrough();
    slow.write(chunkOf(1, 100));
    const slowDone = read(slow);
    await sleep(5);
    const quick = arrived([chunkOf(2, 100), chunkOf(2, 100)]);
    expect(await read(quick)).to.equal(200);
    expect(seen).to.deep.equal([1, 2, 2]);
    slow.end(chunkOf(1, 100));
    expect(await slowDone).to.equal(200);
    expect(seen).to.deep.equal([1, 2, 2, 1]);
  });

  it('fails an upload whose client goes away while it waits, and holds no slot for it', async () => {
    const pacer = uploadPacer({ concurrent: 1, stallMs: 10_000 });
    const seen: number[] = [];
    const read = reader(pacer, seen);
    const holder = new PassThrough();
    const holding = read(holder);
    const gone = new PassThrough();
    gone.write(chunkOf(2, 10));
    const waiting = read(gone).then(
      () => null,
      (e: unknown) => e,
    );
    await nextTurn();
    gone.destroy(new Error('aborted by the client'));
    expect(((await waiting) as Error | null)?.message).to.equal('aborted by the client');
    expect(pacer.usage()).to.deep.equal({ held: 1, waiting: 0 });
    holder.end(chunkOf(1, 10));
    expect(await holding).to.equal(10);
    expect(pacer.usage()).to.deep.equal({ held: 0, waiting: 0 });
    // The slot came back once: a third upload is read at once.
    expect(await read(arrived([chunkOf(3, 10)]))).to.equal(10);
    expect(seen).to.deep.equal([1, 3]);
  });

  it('gives the slot back when the reader stops early (a 413), leaving the stream paused', async () => {
    const pacer = uploadPacer({ concurrent: 1, stallMs: 10_000 });
    const big = arrived([chunkOf(1, 10), chunkOf(1, 10)]);
    for await (const c of pacer.paced(big)) {
      expect(c.length).to.equal(10);
      break;
    }
    expect(big.isPaused()).to.equal(true);
    expect(pacer.usage()).to.deep.equal({ held: 0, waiting: 0 });
    const seen: number[] = [];
    expect(await reader(pacer, seen)(arrived([chunkOf(2, 10)]))).to.equal(10);
  });
});
