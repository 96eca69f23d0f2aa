import {
  createMemoryEngine,
  journalTables,
  shelfTables,
  type MemoryEngine,
  type MemoryStoreOptions,
  type RecordChange,
} from '@support/adapter-memory';
import type { Store } from '@support/application';
import { blobFiles, collectLeftovers } from './blob-files.js';
import { createStoreIfMissing, DataDirError } from './data-dir.js';
import { delegate, portMethods } from './delegate.js';
import { ReloadAfterCalls } from './reload.js';
import { LmdbEnvironment } from './environment.js';
import { feedTables, LmdbFeed } from './feed.js';
import { heapNeeded, heapRefusal, heapShare, heapWarningShare, heapWarningText } from './heap.js';
import { CommitFailedError, LmdbSink } from './lmdb-sink.js';
import { takeOwnership } from './lock.js';
import { openDirWarning } from './private-files.js';

export interface EmbeddedStoreOptions {
  /** The directory of the store (created when missing); one process at a time. */
  readonly dataDir: string;
  /**
   * How many uploads the service reads at once (UPLOAD_CONCURRENCY, default 4): the blob files
   * keep two 256 KiB write buffers for each, for reuse.
   */
  readonly uploadsAtOnce?: number;
  /** The memory engine's settings (tests make chunks tiny). */
  readonly memory?: MemoryStoreOptions;
  /** One line for the operator when a commit fails. */
  readonly log?: (level: 'error' | 'warn' | 'info', message: string, fields: Record<string, unknown>) => void;
  /**
   * Called once when a commit failed: the store refuses every call from then on (fail-stop),
   * and the process should exit so that a restart loads what the disk holds (the service's
   * composition root exits with a code a supervisor restarts on).
   */
  readonly onFailure?: (cause: Error) => void;
  /** Tests only: runs inside every port call's (child) transaction, after its changes, and may throw to make it fail. */
  readonly beforeCommit?: () => void;
  /** Tests only: awaited once each commit is durable, before anyone learns of it (a slow commit). */
  readonly slowCommit?: () => Promise<void>;
  /** Tests only: the heap limit the start checks the data against (default: V8's). */
  readonly heapLimitBytes?: number;
  /** Tests only: the share of the heap limit in use, 0..1 (default: V8's statistics). */
  readonly heapShare?: () => number;
  /** Tests only: how many events one commit of the feed's retention forgets (default: forgetBatch). */
  readonly forgetBatch?: number;
  /** Tests only: memory rebuilt from LMDB after the calls that wrote (reload.ts). */
  readonly reloadAfterEveryCall?: boolean;
}

/** What a start found on disk. */
export interface LoadReport {
  readonly records: Readonly<Record<string, number>>;
  readonly milliseconds: number;
}

export type EmbeddedStore = Store & {
  /** Takes the data directory, opens it and loads it into memory: call once, before any port. */
  readonly start: () => Promise<{ readonly warnings: readonly string[] }>;
  readonly close: () => Promise<void>;
  /** What the last load read (for the start's log line and the benchmarks). */
  readonly loaded: () => LoadReport | null;
  /** What an operator should know now (the heap at 80% of its limit or more), for /readyz; [] when nothing. */
  readonly warnings: () => readonly string[];
};

const metaTable = 'meta';

interface Opened {
  readonly environment: LmdbEnvironment;
  readonly sink: LmdbSink;
  readonly feed: LmdbFeed;
  readonly release: () => Promise<void>;
  /** Replaced only by the tests' reload after every call (reload.ts). */
  engine: MemoryEngine;
  /** The failed commit's refusal, once one failed (then every call is refused). */
  fault: CommitFailedError | null;
}

/** Every record of the memory store's tables, as stored, in an order that restores references first. */
function* storedRecords(environment: LmdbEnvironment, counts: Record<string, number>): Generator<RecordChange> {
  for (const table of journalTables) {
    let n = 0;
    for (const { key, value } of environment.table(table).getRange({})) {
      n += 1;
      yield { table, key: key as RecordChange['key'], value };
    }
    counts[table] = n;
  }
}

/**
 * The durable store on one machine: the memory store's engine (its indexes and plans, held
 * by every contract suite) in front, LMDB underneath. Every port call's changes commit in
 * one LMDB transaction (group-committed with the calls of the same moment) before the call
 * answers; a read answers once every change it could have seen is durable. The change feed,
 * the kept Idempotency-Key answers and the webhook delivery logs are read from LMDB, not held
 * in memory. A failed commit stops the store for good (fail-stop): memory is ahead of the
 * disk, and only a restart loads what the disk holds.
 */
export const createEmbeddedStore = (options: EmbeddedStoreOptions): EmbeddedStore => {
  let opened: Opened | null = null;
  let report: LoadReport | null = null;
  let heapWatch: NodeJS.Timeout | null = null;
  let heapWarned = false;
  const shareOfHeap = options.heapShare ?? heapShare;
  const log = options.log ?? (() => undefined);
  const current = (): Opened => {
    if (opened === null) throw new Error('the embedded store is not started');
    return opened;
  };

  /** `atStart`: the claims on disk are a dead process's (the lock: one process per data directory); the tests' reload passes false. */
  const load = (o: Pick<Opened, 'environment' | 'sink' | 'feed'>, atStart = false): MemoryEngine => {
    const started = performance.now();
    const engine = createMemoryEngine(options.memory ?? {}, {
      sink: o.sink,
      feed: (note) => {
        o.feed.attach(note);
        return o.feed;
      },
      // Shelved records (kept answers, delivery logs) are read from LMDB, never loaded.
      read: (table, key): unknown => o.environment.table(table).get(key as never),
      claimsAbandoned: atStart,
    });
    const counts: Record<string, number> = {};
    engine.restore(storedRecords(o.environment, counts));
    counts.events = (o.environment.table(feedTables.events).getStats() as { entryCount: number }).entryCount;
    report = { records: counts, milliseconds: Math.round(performance.now() - started) };
    return engine;
  };

  // Fail-stop: from the first failure on, every call is refused and the process is told to stop.
  const fail = (o: Opened, cause: Error, why: Promise<Error> = Promise.resolve(cause)): void => {
    if (o.fault !== null) return;
    o.fault = new CommitFailedError(cause);
    void why.then((reason) => {
      log('error', `embedded store: ${reason.message}; refusing every call until a restart`, {
        data_dir: options.dataDir,
      });
      options.onFailure?.(reason);
    });
  };

  const open = (release: () => Promise<void>): Opened => {
    let environment: LmdbEnvironment | null = null;
    try {
      environment = new LmdbEnvironment(options.dataDir, [
        ...journalTables,
        ...shelfTables,
        feedTables.events,
        feedTables.newest,
        feedTables.byActor,
        metaTable,
      ]);
      let o: Opened | null = null;
      const sink = new LmdbSink(environment, {
        committed: (changes) => {
          reloads?.committed();
          feed.committed(changes);
        },
        failed: (cause, why) => {
          const said = (e: Error): Error => new Error(`commit failed: ${e.message}`, { cause: e });
          if (o !== null) fail(o, said(cause), why.then(said));
        },
        ...(options.beforeCommit === undefined ? {} : { beforeCommit: options.beforeCommit }),
        ...(options.slowCommit === undefined ? {} : { slowCommit: options.slowCommit }),
      });
      const feed = new LmdbFeed(environment, (changes) => sink.commit(changes), options.forgetBatch);
      // A load that cannot fit the heap would crash ("heap out of memory") and crash-loop: say so first.
      const tooBig = heapRefusal(options.dataDir, heapNeeded(environment, journalTables), options.heapLimitBytes);
      if (tooBig !== null) throw new DataDirError(tooBig);
      const parts = { environment, sink, feed };
      o = { ...parts, release, engine: load(parts, true), fault: null };
      return o;
    } catch (e) {
      if (environment !== null) void environment.close();
      throw e;
    }
  };

  // After a failed commit every call is refused: memory holds what the disk does not.
  const refusal = (): Promise<void> | null => {
    const fault = current().fault;
    return fault === null ? null : Promise.reject(fault);
  };
  const reloads = options.reloadAfterEveryCall === true ? new ReloadAfterCalls(current, load) : undefined;
  const blobs = blobFiles(options.dataDir, options.uploadsAtOnce);
  const port = <K extends Exclude<keyof Store, 'events' | 'health' | 'blobs'>>(name: K): Store[K] =>
    delegate(
      portMethods[name],
      () => current().engine.store[name],
      refusal,
      name === 'rateLimits' ? undefined : reloads,
    );
  const feedCall = <T>(call: (o: Opened) => Promise<T>): Promise<T> => {
    const o = current();
    return o.fault === null ? call(o) : Promise.reject(o.fault);
  };

  return {
    tickets: port('tickets'),
    ticketFields: port('ticketFields'),
    messages: port('messages'),
    attachments: port('attachments'),
    blobs,
    users: port('users'),
    groups: port('groups'),
    tokens: port('tokens'),
    personalTokens: port('personalTokens'),
    rateLimits: port('rateLimits'),
    idempotency: port('idempotency'),
    webhooks: port('webhooks'),
    ids: port('ids'),
    events: {
      after: (after, limit, actorId) => feedCall((o) => o.feed.after(after, limit, actorId)),
      bounds: () => feedCall((o) => o.feed.bounds()),
      waitFor: (after, signal) => current().feed.waitFor(after, signal),
      forget: (before) => feedCall((o) => o.feed.forget(before)),
    },
    health: {
      // Ready until a commit fails (then the process is meant to stop: fail-stop).
      ping: () => Promise.resolve(opened !== null && opened.fault === null),
    },
    start: async () => {
      if (opened !== null) return { warnings: [] };
      const early: { lost: Error | null } = { lost: null };
      const release = await takeOwnership(options.dataDir, (cause) => {
        if (opened === null) early.lost = cause;
        else fail(opened, cause);
      });
      try {
        await createStoreIfMissing(options.dataDir);
        opened = open(release);
        // The load's pages leave the process's memory: nothing has been served yet, so nothing reads meanwhile.
        await opened.sink.drain();
        await opened.environment.unmapAfterLoad();
      } catch (e) {
        if (opened !== null) await opened.environment.close();
        opened = null;
        await release();
        throw e;
      }
      if (early.lost !== null) fail(opened, early.lost);
      // Bytes a crash left without their record (written before a commit that never came).
      await collectLeftovers(blobs, opened.engine.store.attachments, log);
      heapWatch ??= setInterval(() => {
        const share = shareOfHeap();
        if (share >= heapWarningShare && !heapWarned)
          log('warn', `embedded store: ${heapWarningText}`, {
            data_dir: options.dataDir,
            heap_share: Math.round(share * 100) / 100,
          });
        heapWarned = share >= 0.75 && (heapWarned || share >= heapWarningShare);
      }, 10_000);
      heapWatch.unref();
      // Said once, at the start (contract §11); the directory is the operator's to change.
      const openDir = openDirWarning(options.dataDir);
      return { warnings: openDir === null ? [] : [openDir] };
    },
    close: async () => {
      if (heapWatch !== null) clearInterval(heapWatch);
      heapWatch = null;
      const o = opened;
      if (o === null) return;
      opened = null;
      await o.sink.drain();
      await o.environment.close();
      await o.release();
    },
    loaded: () => report,
    warnings: () => {
      const share = opened === null ? 0 : shareOfHeap();
      return share >= heapWarningShare ? [`${heapWarningText} (${String(Math.round(share * 100))}% of it in use)`] : [];
    },
  };
};
