import { finished, type Readable } from 'node:stream';
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
// An upload holds its slot while its client sends. One whose next bytes have not come within
// `stallMs` gives the slot to the next in line (a slow client never holds others back) and, once
// its bytes come, waits for a slot again ahead of the uploads that have not started.
//
// The chunks are taken one by one as they arrived ('data' in flowing mode): a Readable's async
// iterator hands over everything buffered concatenated, a copy of every byte of a paused upload.
// Leaving the loop early leaves the stream paused, not destroyed: the answer (a 413) is written
// and the rest of the body drained before the connection closes (pipeline/write.ts).

/** How many upload bytes all uploads together take in one turn of the event loop. */
export const uploadBytesPerTurn = 256 * 1024;
/** UPLOAD_CONCURRENCY's default: how many uploads are read at once. */
export const defaultUploadConcurrency = 4;
/** How long an upload's client may pause before its slot goes to the next upload. */
export const uploadStallMs = 50;

export interface UploadPacing {
  readonly bytesPerTurn?: number;
  readonly concurrent?: number;
  readonly stallMs?: number;
}

export interface UploadPacer {
  /** `stream`'s chunks at the shared pace, as they arrived (never split, never joined). */
  paced(stream: Readable): AsyncIterable<Buffer>;
  /** How many uploads are being read, and how many wait for their turn. */
  usage(): { held: number; waiting: number };
}

/** The chunks of `stream` one by one, read only while holding a slot; ends with its end or error. */
async function* chunksOf(stream: Readable, slots: UploadSlots, stallMs: number): AsyncIterable<Buffer> {
  const queue: Buffer[] = [];
  // Set by the callbacks below (an object: the loop reads them after an await).
  const state: { ended: boolean; failure: Error | null; holding: boolean } = {
    ended: false,
    failure: null,
    holding: false,
  };
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onData = (chunk: Buffer): void => {
    queue.push(chunk);
    stream.pause();
    notify();
  };
  stream.pause();
  stream.on('data', onData);
  const stopWatching = finished(stream, { writable: false }, (e) => {
    if (e !== undefined && e !== null) state.failure = e;
    else state.ended = true;
    notify();
  });
  /** Waits for a slot; false when the stream ended or failed meanwhile (no slot then). */
  const take = async (returning: boolean): Promise<boolean> => {
    const turn = slots.take(returning);
    const failed = new Promise<void>((resolve) => (wake = resolve));
    await Promise.race([turn.granted, failed]);
    wake = null;
    if (turn.cancel()) return false;
    state.holding = true;
    return true;
  };
  const give = (): void => {
    if (!state.holding) return;
    state.holding = false;
    slots.give();
  };
  try {
    if (!(await take(false)) && state.failure !== null) throw state.failure;
    for (;;) {
      const chunk = queue.shift();
      if (chunk !== undefined) {
        if (!state.holding && !(await take(true)) && state.failure !== null) throw state.failure;
        yield chunk;
        continue;
      }
      if (state.failure !== null) throw state.failure;
      if (state.ended) return;
      const waiting = new Promise<void>((resolve) => (wake = resolve));
      // A client that pauses longer than stallMs lets the next upload in.
      const stalled = state.holding ? setTimeout(give, stallMs) : null;
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
}: UploadPacing = {}): UploadPacer => {
  const slots = uploadSlots(concurrent);
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
    async *paced(stream: Readable): AsyncIterable<Buffer> {
      for await (const chunk of chunksOf(stream, slots, stallMs)) {
        while (left <= 0) await turn();
        left -= chunk.length;
        yield chunk;
      }
    },
    usage: () => slots.usage(),
  };
};
