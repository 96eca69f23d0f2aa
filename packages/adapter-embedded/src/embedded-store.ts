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
import { takeOwnership } from './data-dir.js';
import { delegate, portMethods } from './delegate.js';
import { ReloadAfterCalls } from './reload.js';
import { LmdbEnvironment } from './environment.js';
import { feedTables, LmdbFeed } from './feed.js';
import { LmdbSink } from './lmdb-sink.js';
import { Gate, MapRefresher, refreshMap, residentFileBytes } from './map-refresh.js';

export interface EmbeddedStoreOptions {
  /** The directory of the store (created when missing); one process at a time. */
  readonly dataDir: string;
  /** The memory engine's settings (tests make chunks tiny). */
  readonly memory?: MemoryStoreOptions;
  /** One line for the operator when a commit fails, and when commits succeed again. */
  readonly log?: (level: 'error' | 'info', message: string, fields: Record<string, unknown>) => void;
  /** Tests only: runs inside every commit's transaction, and may throw to make it fail. */
  readonly beforeCommit?: () => void;
  /**
   * How many bytes of the store's file pages the process may gain in memory before it lets
   * them go by reopening the store between two commits (default 32 MiB; 0: never). See
   * docs/embedded-store.md.
   */
  readonly mappedBytes?: number;
  /** How often the resident file pages are read, in ms (default 5,000). */
  readonly mapCheckEveryMs?: number;
  /** Tests only: how the resident file pages are read (default: /proc/self/status). */
  readonly residentFileBytes?: () => number | null;
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
  /** Closes and reopens the store's environment now, letting its mapped pages go (the budget's check does it by itself). */
  readonly refreshMap: () => Promise<void>;
};

const [metaTable, heartbeatKey] = ['meta', 'heartbeat'];

interface Opened {
  readonly environment: LmdbEnvironment;
  readonly sink: LmdbSink;
  readonly feed: LmdbFeed;
  readonly release: () => void;
  /** Port calls wait here while the environment is reopened. */
  readonly gate: Gate;
  readonly refresher: MapRefresher;
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
 * in memory. A failed commit refuses the calls that were
 * waiting on it and puts memory back to what the disk holds.
 */
export const createEmbeddedStore = (options: EmbeddedStoreOptions): EmbeddedStore => {
  let opened: Opened | null = null;
  const mappedBytes = options.mappedBytes ?? 32 * 1024 * 1024;
  let report: LoadReport | null = null;
  const log = options.log ?? (() => undefined);
  const current = (): Opened => {
    if (opened === null) throw new Error('the embedded store is not started');
    return opened;
  };

  const state: { opened: Opened | null } = { opened: null };
  const load = (o: Pick<Opened, 'environment' | 'sink' | 'feed'>): MemoryEngine => {
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
      read: (table, key): unknown => o.environment.table(table).get(key as never),
    });
    const counts: Record<string, number> = {};
    engine.restore(storedRecords(o.environment, counts));
    counts.events = o.environment.table(feedTables.events).getCount({});
    report = { records: counts, milliseconds: Math.round(performance.now() - started) };
    return engine;
  };

  const open = (): Opened => {
    const release = takeOwnership(options.dataDir);
    let environment: LmdbEnvironment | null = null;
    try {
      environment = new LmdbEnvironment(options.dataDir, [
        ...journalTables,
        ...shelfTables,
        feedTables.events,
        feedTables.newest,
        metaTable,
      ]);
      const sink = new LmdbSink(environment, {
        committed: (changes) => {
          reloads?.committed();
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
      const feed = new LmdbFeed(environment, (changes) => sink.commit(changes));
      const parts = { environment, sink, feed };
      const refresher = new MapRefresher(
        {
          budgetBytes: mappedBytes,
          everyMs: options.mapCheckEveryMs ?? 5000,
          resident: options.residentFileBytes ?? residentFileBytes,
        },
        () =>
          refreshMap(o, {
            open: () => opened === o,
            log: (level, message, fields) => {
              log(level, message, { data_dir: options.dataDir, ...fields });
            },
          }),
      );
      const o: Opened = {
        ...parts,
        release,
        gate: new Gate(),
        refresher,
        engine: load(parts),
        fault: null,
        carried: [],
      };
      state.opened = o;
      return o;
    } catch (e) {
      if (environment !== null) void environment.close();
      release();
      throw e;
    }
  };

  const reloads = options.reloadAfterEveryCall === true ? new ReloadAfterCalls(current, load) : undefined;
  const blobs = blobFiles(options.dataDir);
  const port = <K extends Exclude<keyof Store, 'events' | 'health' | 'blobs'>>(name: K): Store[K] =>
    delegate(
      portMethods[name],
      () => current().engine.store[name],
      () => current().gate.pass(),
      name === 'rateLimits' ? undefined : reloads,
    );
  // The feed's reads of LMDB pass the gate too (its memory store's shape has no own keys to delegate by).
  const gated = <T>(call: (o: Opened) => Promise<T>): Promise<T> => {
    const o = current();
    const waiting = o.gate.pass();
    return waiting === null ? call(o) : waiting.then(() => call(current()));
  };

  return {
    tickets: port('tickets'),
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
      after: (after, limit, actorId) => gated((o) => o.feed.after(after, limit, actorId)),
      bounds: () => gated((o) => o.feed.bounds()),
      waitFor: (after, signal) => current().feed.waitFor(after, signal),
      forget: (before) => gated((o) => o.feed.forget(before)),
    },
    health: {
      // Ready while commits succeed; after a failure, a small commit tells whether they do again.
      ping: async () => {
        const o = opened;
        if (o === null || o.gate.refusing) return false;
        if (o.fault === null) return true;
        return o.sink.commit([...o.carried, { table: metaTable, key: heartbeatKey, value: Date.now() }]).then(
          () => true,
          () => false,
        );
      },
    },
    start: async () => {
      if (opened === null) {
        const o = open();
        try {
          // The load read the whole file through the map: let those pages go before serving.
          if (mappedBytes > 0) await o.environment.reopen();
        } catch (e) {
          state.opened = null;
          await o.environment.close();
          o.release();
          throw e;
        }
        opened = o;
        await collectLeftovers(blobs, o.engine.store.attachments, log);
        o.refresher.start();
      }
      return { warnings: [] };
    },
    close: async () => {
      const o = opened;
      if (o === null) return;
      opened = null;
      await o.refresher.stop();
      await o.sink.drain();
      await o.environment.close();
      if (state.opened === o) state.opened = null;
      o.release();
    },
    loaded: () => report,
    refreshMap: () => current().refresher.run(),
  };
};
