import type { StoredEvent } from '@support/domain';
import type { EventLog } from '../src/index.js';

export interface FeedReading {
  /** Events asked for per read. */
  readonly batch: number;
  /** What the reader does when a read found nothing new (a tick, a few ms). */
  readonly idle: () => Promise<void>;
  /** The reader gives up, failing, when it has not seen every write's event within this time. */
  readonly withinMs: number;
}

/**
 * Reads the feed from seq 0 while `writes` run, until every write has succeeded and the
 * reader has reached the newest seq; answers what it saw. Every batch must continue the
 * cursor without a gap (else it fails naming the seqs). Bounded either way: the first write
 * refused ends the reading at once with that write's error as the cause (a store that
 * refuses every write would otherwise be polled forever for events that never come), and a
 * reader that has not caught up within `withinMs` fails saying how far it got.
 */
export const readFeedWhileWriting = async (
  events: EventLog,
  writes: readonly Promise<unknown>[],
  o: FeedReading,
): Promise<StoredEvent[]> => {
  const state: { succeeded: number; refused: { readonly cause: unknown } | null } = { succeeded: 0, refused: null };
  for (const w of writes) {
    w.then(
      () => {
        state.succeeded += 1;
      },
      (cause: unknown) => {
        state.refused ??= { cause };
      },
    );
  }
  const seen: StoredEvent[] = [];
  const started = Date.now();
  for (;;) {
    if (state.refused !== null) {
      throw new Error(
        `a write was refused (${String(state.succeeded)} of ${String(writes.length)} had succeeded), so its event can never come`,
        {
          cause: state.refused.cause,
        },
      );
    }
    const cursor = seen[seen.length - 1]?.seq ?? 0;
    const batch = await events.after(cursor, o.batch);
    batch.forEach((e, i) => {
      if (e.seq !== cursor + i + 1)
        throw new Error(`the feed skipped from seq ${String(cursor)} to ${String(e.seq)} (a hole a reader saw)`);
    });
    seen.push(...batch);
    if (state.succeeded === writes.length && (await events.bounds()).newest === (seen[seen.length - 1]?.seq ?? 0))
      return seen;
    if (Date.now() - started > o.withinMs) {
      throw new Error(
        `the reader saw ${String(seen.length)} events in ${String(o.withinMs)} ms while ${String(state.succeeded)} of ${String(writes.length)} writes had succeeded`,
      );
    }
    if (batch.length === 0) await o.idle();
  }
};
