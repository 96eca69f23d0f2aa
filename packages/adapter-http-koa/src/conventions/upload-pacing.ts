import { finished, type Readable } from 'node:stream';
import { problem } from '../errors/http-problem.js';
import type { ReceiptClock } from '../node/request-receipt.js';
import { uploadSlots, type UploadSlots } from './upload-slots.js';

// Upload bodies are read under two bounds, so that uploads cannot take the event loop from the
// other requests (a GET of a ticket). Figures: docs/benchmarks.md, "Attachments".
//
// 1. At most `concurrent` uploads are read at once (UPLOAD_CONCURRENCY, upload-slots.ts); the
//    others wait their turn in arrival order with their stream paused, so their sockets stop
//    through TCP flow control: their bytes wait in the clients' and the kernel's buffers, not
//    in ours. Fifty 1 MiB uploads read at once held ~25 MiB of chunks long enough to reach the
//    old generation, and each burst then cost three mark-compact collections of 15-27 ms
//    (--trace-gc), which is what the reads' p99 was made of.
// 2. All uploads together take at most `bytesPerTurn` bytes per turn of the event loop, then
//    wait for the next turn (setImmediate runs after the turn's I/O): a read waits behind at
//    most that much hashing and writing.
//
// An upload holds its slot while its client sends, with two exceptions, so that slow clients
// cannot keep the others from their turn:
// - one whose next bytes have not come within `stallMs` gives the slot to the next in line;
// - while others wait, one that has held its slot for `sliceMs` and received less than
//   `floorBytesPerSecond` over that time gives it up at its next chunk (a time slice: before,
//   four clients trickling a few bytes every 20 ms held every slot until they ended or timed out).
// Either way it then waits for a slot again: ahead of the uploads that have not started when it
// was receiving at least the floor rate (a fast client that paused), at the back of the line
// otherwise (slow uploads take turns, round-robin, and cannot pass a slot among themselves).
//
// Time (node/request-receipt.ts): the request's clock stops while the upload waits for a slot,
// and each byte received moves its deadline on at `minBytesPerSecond`, so an upload is cut off
// (408) for its client's slowness only. An upload that has waited `waitMs` in all is answered
// 503 with Retry-After (the service is busy with other uploads; nothing is kept), never left
// waiting without an answer.
//
// The chunks are taken one by one as they arrived ('data' in flowing mode): a Readable's async
// iterator hands over everything buffered concatenated, a copy of every byte of a paused upload.
// Leaving the loop early leaves the stream paused, not destroyed: the answer (a 413) is written
// and the rest of the body drained before the connection closes (pipeline/write.ts).

/**
 * How many upload bytes all uploads together take in one turn of the event loop. 16 KiB (one
 * chunk of a TLS record's size): a read in a burst of 50 uploads waits behind less than with
 * 32 KiB (burst-to-quiet p99 ratio 2.48-4.16x against 3.35-5.55x, lower in each of 13
 * alternated pairs on one quiet core), at no measured cost to one upload's throughput (docs/benchmarks.md,
 * "Attachments", 2026-11-29 night-4).
 */
export const uploadBytesPerTurn = 16 * 1024;
/** UPLOAD_CONCURRENCY's default: how many uploads are read at once. */
export const defaultUploadConcurrency = 4;
/** How long an upload's client may pause before its slot goes to the next upload. */
export const uploadStallMs = 50;
/** How long a slow upload keeps its slot while others wait (its time slice). */
export const uploadSliceMs = 1000;
/** An upload receiving less than this over its time slice is slow: it yields its slot to waiting ones. */
export const uploadSliceFloorBytesPerSecond = 1024 * 1024;
/** UPLOAD_MIN_BYTES_PER_S's default: each 64 KiB received earns an upload one more second. */
export const defaultUploadMinBytesPerSecond = 64 * 1024;
/** Seconds a client is asked to wait (Retry-After) after its upload waited too long for a turn. */
export const uploadsRetryAfterSeconds = 10;

export interface UploadPacing {
  readonly bytesPerTurn?: number;
  readonly concurrent?: number;
  readonly stallMs?: number;
  readonly sliceMs?: number;
  readonly floorBytesPerSecond?: number;
  /** How long an upload may wait for slots in all before 503 (REQUEST_TIMEOUT_S). */
  readonly waitMs?: number;
  /** How much later each received byte moves the request's deadline (UPLOAD_MIN_BYTES_PER_S). */
  readonly minBytesPerSecond?: number;
}

interface Timing {
  readonly stallMs: number;
  readonly sliceMs: number;
  readonly floorBytesPerSecond: number;
  readonly waitMs: number;
  readonly msPerByte: number;
}

export interface UploadPacer {
  /**
   * `stream`'s chunks at the shared pace, as they arrived (never split, never joined); `clock`
   * is the request's (paused while waiting for a slot, moved on by the bytes received).
   */
  paced(stream: Readable, clock?: ReceiptClock | null): AsyncIterable<Buffer>;
  /** How many uploads are being read, and how many wait for their turn. */
  usage(): { held: number; waiting: number };
}

/** The chunks of `stream` one by one, read only while holding a slot; ends with its end or error. */
async function* chunksOf(
  stream: Readable,
  slots: UploadSlots,
  timing: Timing,
  clock: ReceiptClock | null,
): AsyncIterable<Buffer> {
  const queue: Buffer[] = [];
  // Set by the callbacks below (an object: the loop reads them after an await). The current
  // hold: since when, how many bytes it took, and whether the last one was at the floor rate.
  const state = {
    ended: false,
    failure: null as Error | null,
    holding: false,
    heldSince: 0,
    heldBytes: 0,
    fast: false,
  };
  /** Bytes per second over the current hold. */
  const holdRate = (now: number): number => (state.heldBytes * 1000) / Math.max(1, now - state.heldSince);
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onData = (chunk: Buffer): void => {
    clock?.extend(chunk.length * timing.msPerByte);
    queue.push(chunk);
    stream.pause();
    notify();
  };
  stream.pause();
  stream.on('data', onData);
  const stopWatching = finished(stream, { writable: false }, (e) => {
    // A body cut off at its deadline (answered 408 already) is the client's lateness, not a defect.
    if (e !== undefined && e !== null)
      state.failure = clock?.expired() === true ? problem('requestTimeout', 'the upload did not arrive in time') : e;
    else state.ended = true;
    notify();
  });
  let waited = 0;
  /**
   * Waits for a slot, the request's clock stopped; false when the stream ended or failed
   * meanwhile (no slot then); a 503 once the upload has waited `waitMs` in all.
   */
  const take = async (returning: boolean): Promise<boolean> => {
    const turn = slots.take(returning);
    const failed = new Promise<void>((resolve) => (wake = resolve));
    const started = performance.now();
    const overdue = { now: false, end: (): void => undefined };
    const late = new Promise<void>((resolve) => (overdue.end = resolve));
    const timer = setTimeout(
      () => {
        overdue.now = true;
        overdue.end();
      },
      Math.max(0, timing.waitMs - waited),
    );
    clock?.pause();
    await Promise.race([turn.granted, failed, late]);
    clock?.resume();
    clearTimeout(timer);
    wake = null;
    waited += performance.now() - started;
    if (turn.cancel()) {
      if (!overdue.now || state.failure !== null || state.ended) return false;
      throw problem(
        'uploadsBusy',
        `the service is receiving as many uploads as it reads at once (UPLOAD_CONCURRENCY), and this one waited ${String(Math.round(waited / 1000))} s for its turn; nothing was kept: retry after the number of seconds in Retry-After`,
        // Closed after the answer: its body (unread) is not worth reading while the service is busy.
        { headers: { 'Retry-After': String(uploadsRetryAfterSeconds), Connection: 'close' } },
      );
    }
    state.holding = true;
    state.heldSince = performance.now();
    state.heldBytes = 0;
    return true;
  };
  const give = (): void => {
    if (!state.holding) return;
    state.holding = false;
    state.fast = holdRate(performance.now()) >= timing.floorBytesPerSecond;
    slots.give();
  };
  /** Whether its time slice is over: held `sliceMs` below the floor rate while others wait. */
  const overstays = (): boolean => {
    const now = performance.now();
    return (
      now - state.heldSince >= timing.sliceMs && holdRate(now) < timing.floorBytesPerSecond && slots.usage().waiting > 0
    );
  };
  try {
    if (!(await take(false)) && state.failure !== null) throw state.failure;
    for (;;) {
      const chunk = queue[0];
      if (chunk !== undefined) {
        if (state.holding && overstays()) give();
        if (!state.holding && !(await take(state.fast)) && state.failure !== null) throw state.failure;
        queue.shift();
        state.heldBytes += chunk.length;
        yield chunk;
        continue;
      }
      if (state.failure !== null) throw state.failure;
      if (state.ended) return;
      const waiting = new Promise<void>((resolve) => (wake = resolve));
      // A client that pauses longer than stallMs lets the next upload in.
      const stalled = state.holding ? setTimeout(give, timing.stallMs) : null;
      stream.resume();
      await waiting;
      if (stalled !== null) clearTimeout(stalled);
    }
  } finally {
    give();
    stream.off('data', onData);
    stopWatching();
    stream.pause();
  }
}

export const uploadPacer = ({
  bytesPerTurn = uploadBytesPerTurn,
  concurrent = defaultUploadConcurrency,
  stallMs = uploadStallMs,
  sliceMs = uploadSliceMs,
  floorBytesPerSecond = uploadSliceFloorBytesPerSecond,
  waitMs = 60_000,
  minBytesPerSecond = defaultUploadMinBytesPerSecond,
}: UploadPacing = {}): UploadPacer => {
  const slots = uploadSlots(concurrent);
  const timing: Timing = { stallMs, sliceMs, floorBytesPerSecond, waitMs, msPerByte: 1000 / minBytesPerSecond };
  let left = bytesPerTurn;
  let nextTurn: Promise<void> | null = null;
  const turn = (): Promise<void> =>
    (nextTurn ??= new Promise((resolve) => {
      // setImmediate runs after this turn's I/O callbacks: the next turn polls the sockets first.
      setImmediate(() => {
        left = bytesPerTurn;
        nextTurn = null;
        resolve();
      });
    }));
  return {
    async *paced(stream: Readable, clock: ReceiptClock | null = null): AsyncIterable<Buffer> {
      for await (const chunk of chunksOf(stream, slots, timing, clock)) {
        while (left <= 0) await turn();
        left -= chunk.length;
        yield chunk;
      }
    },
    usage: () => slots.usage(),
  };
};
