import {
  createMemoryEngine,
  journalTables,
  shelfTables,
  type MemoryEngine,
  type MemoryStoreOptions,
  type RecordChange,
} from '@support/adapter-memory';
import type { Store } from '@support/application';
import type { StoredEvent } from '@support/domain';
import type { Database, RootDatabase } from 'lmdb';
import { openEnvironment, tableOptions, takeOwnership } from './data-dir.js';
import { delegate } from './delegate.js';
import { feedTables, LmdbFeed } from './feed.js';
import { LmdbSink } from './lmdb-sink.js';

export interface EmbeddedStoreOptions {
  /** The directory of the store (created when missing); one process at a time. */
  readonly dataDir: string;
  /** The memory engine's settings (tests make chunks tiny). */
  readonly memory?: MemoryStoreOptions;
  /** One line for the operator when a commit fails, and when commits succeed again. */
  readonly log?: (level: 'error' | 'info', message: string, fields: Record<string, unknown>) => void;
  /** Tests only: runs inside every commit's transaction, and may throw to make it fail. */
  readonly beforeCommit?: () => void;
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
};

const metaTable = 'meta';
const heartbeatKey = 'heartbeat';

interface Opened {
  readonly env: RootDatabase;
  readonly tables: ReadonlyMap<string, Database>;
  readonly sink: LmdbSink;
  readonly feed: LmdbFeed;
  readonly release: () => void;
  engine: MemoryEngine;
  /** Why the last commit failed, until one succeeds again (then null). */
  fault: string | null;
  /**
   * Id counters that refused commits held: calls were given those ids (the sequences answer
   * before their commit, Journal.aheadRunner), so the reloaded memory keeps them and every
   * later commit carries them first, until one is durable: an id is never given twice, and a
   * write that uses one never becomes durable without it.
   */
  carried: readonly RecordChange[];
}

const idsTable = 'ids';

/** The highest counter of each sequence among the given ones and the refused changes' (table `ids`). */
const carriedIds = (
  carried: readonly RecordChange[],
  refused: readonly (readonly RecordChange[])[],
): RecordChange[] => {
  const highest = new Map<string, RecordChange>();
  for (const c of [...carried, ...refused.flat()]) {
    if (c.table !== idsTable) continue;
    const was = highest.get(String(c.key));
    if (was === undefined || (was.value as number) < (c.value as number)) highest.set(String(c.key), c);
  }
  return [...highest.values()];
};

/** Every record of the memory store's tables, as stored, in an order that restores references first. */
function* storedRecords(
  tables: ReadonlyMap<string, Database>,
  counts: Record<string, number>,
): Generator<RecordChange> {
  for (const table of journalTables) {
    const db = tables.get(table);
    if (db === undefined) continue;
    let n = 0;
    for (const { key, value } of db.getRange({})) {
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
 * in memory. A failed commit refuses the calls that were
 * waiting on it and puts memory back to what the disk holds.
 */
export const createEmbeddedStore = (options: EmbeddedStoreOptions): EmbeddedStore => {
  let opened: Opened | null = null;
  let report: LoadReport | null = null;
  const log = options.log ?? (() => undefined);
  const current = (): Opened => {
    if (opened === null) throw new Error('the embedded store is not started');
    return opened;
  };

  const state: { opened: Opened | null } = { opened: null };
  const load = (o: Omit<Opened, 'engine' | 'fault' | 'carried'>): MemoryEngine => {
    const started = performance.now();
    const engine = createMemoryEngine(options.memory ?? {}, {
      sink: {
        commit: (changes) => {
          const carried = state.opened?.carried ?? [];
          return o.sink.commit(carried.length === 0 ? changes : [...carried, ...changes]);
        },
      },
      feed: (note) => {
        o.feed.attach(note);
        return o.feed;
      },
      // Shelved records (kept answers, delivery logs) are read from LMDB, never loaded.
      read: (table, key): unknown => o.tables.get(table)?.get(key as never),
    });
    const counts: Record<string, number> = {};
    engine.restore(storedRecords(o.tables, counts));
    counts.events = o.tables.get(feedTables.events)?.getCount({}) ?? 0;
    report = { records: counts, milliseconds: Math.round(performance.now() - started) };
    return engine;
  };

  const open = (): Opened => {
    const release = takeOwnership(options.dataDir);
    let env: RootDatabase | null = null;
    try {
      env = openEnvironment(options.dataDir);
      const root = env;
      const tables = new Map<string, Database>(
        [...journalTables, ...shelfTables, feedTables.events, feedTables.newest, metaTable].map((name) => [
          name,
          root.openDB({ name, ...tableOptions }),
        ]),
      );
      const sink = new LmdbSink(root, tables, {
        committed: (changes) => {
          feed.committed(changes);
          const o = state.opened;
          if (o !== null && o.carried.length > 0 && changes.includes(o.carried[0] as RecordChange)) o.carried = [];
          if (o?.fault != null) {
            o.fault = null;
            log('info', 'embedded store: commits succeed again', { data_dir: options.dataDir });
          }
        },
        failed: (cause, refused) => {
          const o = state.opened;
          if (o === null) return;
          o.fault = cause.message;
          log('error', `embedded store: commit failed: ${cause.message}`, {
            data_dir: options.dataDir,
            refused_writes: refused.length,
          });
          // Memory holds the refused changes; the disk does not. Load what the disk holds, keeping
          // the ids that were given out (see `carried`).
          if (refused.some((changes) => changes.some((c) => c.table !== metaTable))) {
            o.carried = carriedIds(o.carried, refused);
            o.engine = load(o);
            o.engine.restore(o.carried);
          }
        },
        ...(options.beforeCommit === undefined ? {} : { beforeCommit: options.beforeCommit }),
      });
      const feed = new LmdbFeed(
        tables.get(feedTables.events) as Database<StoredEvent, number>,
        tables.get(feedTables.newest) as Database<number, string>,
        (changes) => sink.commit(changes),
      );
      const parts = { env: root, tables, sink, feed, release };
      const o: Opened = { ...parts, engine: load(parts), fault: null, carried: [] };
      state.opened = o;
      return o;
    } catch (e) {
      if (env !== null) void env.close();
      release();
      throw e;
    }
  };

  // The methods of each port are the memory engine's: read off a store that is never used.
  const shapes = createMemoryEngine().store;
  const port = <K extends Exclude<keyof Store, 'events' | 'health'>>(name: K): Store[K] =>
    delegate(shapes[name], () => current().engine.store[name]);

  return {
    tickets: port('tickets'),
    messages: port('messages'),
    users: port('users'),
    groups: port('groups'),
    tokens: port('tokens'),
    personalTokens: port('personalTokens'),
    rateLimits: port('rateLimits'),
    idempotency: port('idempotency'),
    webhooks: port('webhooks'),
    ids: port('ids'),
    events: {
      after: (after, limit, actorId) => current().feed.after(after, limit, actorId),
      bounds: () => current().feed.bounds(),
      waitFor: (after, signal) => current().feed.waitFor(after, signal),
      forget: (before) => current().feed.forget(before),
    },
    health: {
      // Ready while commits succeed; after a failure, a small commit tells whether they do again.
      ping: async () => {
        const o = opened;
        if (o === null) return false;
        if (o.fault === null) return true;
        return o.sink.commit([...o.carried, { table: metaTable, key: heartbeatKey, value: Date.now() }]).then(
          () => true,
          () => false,
        );
      },
    },
    start: () => {
      opened ??= open();
      return Promise.resolve({ warnings: [] });
    },
    close: async () => {
      const o = opened;
      if (o === null) return;
      opened = null;
      await o.sink.drain();
      await o.env.close();
      if (state.opened === o) state.opened = null;
      o.release();
    },
    loaded: () => report,
  };
};
