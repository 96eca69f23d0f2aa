import { finished, type Readable } from 'node:stream';

// Upload bodies are read at a shared pace: together they take at most `bytesPerTurn` bytes per
// turn of the event loop, then wait for the next turn. Without it, one turn reads whatever the
// sockets hold: 50 concurrent 1 MiB uploads were seen draining 23 MiB in a single turn (strace:
// 600 reads between two epoll waits, 810 ms on two loaded cores), and every other request (a
// GET of a ticket) waited behind them. An upload that waits is paused, so its socket stops
// through the ordinary backpressure (the request stream's buffer fills) and the next turn
// serves the other requests first. Figures: docs/benchmarks.md, "Attachments".
//
// The chunks are taken one by one as they arrived ('data' in flowing mode): a Readable's async
// iterator hands over everything buffered concatenated, a copy of every byte of a paused upload.
// Leaving the loop early leaves the stream paused, not destroyed: the answer (a 413) is written
// and the rest of the body drained before the connection closes (pipeline/write.ts).

/** How many upload bytes all uploads together take in one turn of the event loop. */
export const uploadBytesPerTurn = 256 * 1024;

export interface UploadPacer {
  /** `stream`'s chunks at the shared pace, as they arrived (never split, never joined). */
  paced(stream: Readable): AsyncIterable<Buffer>;
}

/** The chunks of `stream` one by one, paused while none is asked for; ends with its end or error. */
async function* chunksOf(stream: Readable): AsyncIterable<Buffer> {
  const queue: Buffer[] = [];
  // Set by the callbacks below (an object: the loop reads them after an await).
  const outcome: { ended: boolean; failure: Error | null } = { ended: false, failure: null };
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
  stream.on('data', onData);
  const stopWatching = finished(stream, { writable: false }, (e) => {
    if (e !== undefined && e !== null) outcome.failure = e;
    else outcome.ended = true;
    notify();
  });
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk !== undefined) {
        yield chunk;
        continue;
      }
      if (outcome.failure !== null) throw outcome.failure;
      if (outcome.ended) return;
      const waiting = new Promise<void>((resolve) => (wake = resolve));
      stream.resume();
      await waiting;
    }
  } finally {
    stream.off('data', onData);
    stopWatching();
    stream.pause();
  }
}

export const uploadPacer = (bytesPerTurn = uploadBytesPerTurn): UploadPacer => {
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
      for await (const chunk of chunksOf(stream)) {
        while (left <= 0) await turn();
        left -= chunk.length;
        yield chunk;
      }
    },
  };
};
