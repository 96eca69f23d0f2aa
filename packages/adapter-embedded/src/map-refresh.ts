import { readFileSync } from 'node:fs';
import { StoreUnavailableError } from '@support/application';
import type { LmdbEnvironment } from './environment.js';
import type { LmdbSink } from './lmdb-sink.js';

/**
 * The file pages of this process that are in memory (RssFile, Linux), or null where the
 * system does not say. LMDB reads its file through a memory map: every page read or copied
 * on write stays counted in the process's resident memory until the map is closed.
 */
export const residentFileBytes = (): number | null => {
  try {
    const found = /RssFile:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'latin1'));
    return found === null ? null : Number(found[1]) * 1024;
  } catch {
    return null;
  }
};

/**
 * Where port calls wait while the store's environment is reopened, and are refused while it
 * cannot be. `pass` answers null when a call may go on now.
 */
export class Gate {
  private held: { resolve: () => void; reject: (e: Error) => void }[] | null = null;
  private refusal: Error | null = null;

  pass(): Promise<void> | null {
    if (this.refusal !== null) return Promise.reject(this.refusal);
    if (this.held === null) return null;
    const held = this.held;
    return new Promise((resolve, reject) => held.push({ resolve, reject }));
  }

  get refusing(): boolean {
    return this.refusal !== null;
  }

  /** Calls from now on wait. */
  hold(): void {
    this.held ??= [];
  }

  /** Calls waiting and to come are refused with `cause` until `release`. */
  refuse(cause: Error): void {
    this.refusal = cause;
    const held = this.held ?? [];
    this.held = [];
    for (const h of held) h.reject(cause);
  }

  /** The waiting calls go on, in the order they came; later ones pass at once. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    this.refusal = null;
    for (const h of held) h.resolve();
  }
}

export interface MapRefreshOptions {
  /**
   * How many bytes of file pages the process may gain since the environment was last opened
   * before it is reopened (0: never).
   */
  readonly budgetBytes: number;
  /** How often the resident file pages are read. */
  readonly everyMs: number;
  /** Reads them (tests give their own). */
  readonly resident: () => number | null;
}

/**
 * Keeps LMDB's mapped pages from growing the process's memory without bound: every
 * `everyMs` it reads the resident file pages, and once they have grown by more than the
 * budget since the last reopen, it runs `refresh` (which closes and reopens the
 * environment, letting the map's pages go). One refresh at a time.
 */
export class MapRefresher {
  private base: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly options: MapRefreshOptions,
    private readonly refresh: () => Promise<void>,
  ) {}

  /** The resident file pages now (null where the system does not say). */
  resident(): number | null {
    return this.options.resident();
  }

  start(): void {
    if (this.options.budgetBytes <= 0) return;
    this.base = this.options.resident();
    if (this.base === null) return;
    this.timer = setInterval(() => {
      this.check();
    }, this.options.everyMs);
    this.timer.unref();
  }

  private check(): void {
    if (this.running !== null || this.base === null) return;
    const now = this.options.resident();
    if (now === null) return;
    // Pages the kernel took back (memory pressure) lower the mark the growth is counted from.
    if (now < this.base) this.base = now;
    else if (now - this.base > this.options.budgetBytes) void this.run().catch(() => undefined);
  }

  /** Refreshes now (or joins the refresh under way). */
  run(): Promise<void> {
    this.running ??= this.refresh().finally(() => {
      this.running = null;
      this.base = this.base === null ? null : this.options.resident();
    });
    return this.running;
  }

  /** No refresh starts from now on; resolves once the one under way (if any) is over. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.base = null;
    await this.running?.catch(() => undefined);
  }
}

/** What a refresh works on: the store's open parts. */
export interface Refreshable {
  readonly environment: Pick<LmdbEnvironment, 'reopen'>;
  readonly sink: Pick<LmdbSink, 'drain' | 'exclusive'>;
  readonly gate: Gate;
  readonly refresher: Pick<MapRefresher, 'resident'>;
}

/**
 * Closes and reopens the environment between two commits, so that LMDB unmaps its file
 * (every page the process read or copied on write counted in its memory until then). Port
 * calls wait meanwhile (a few ms); when the store cannot be opened again they are refused
 * (503) and it is tried again every second, while `open()` says the store is still open.
 */
export const refreshMap = async (
  o: Refreshable,
  context: {
    readonly open: () => boolean;
    readonly log: (level: 'error' | 'info', message: string, fields: Record<string, unknown>) => void;
  },
): Promise<void> => {
  const started = performance.now();
  const before = o.refresher.resident();
  o.gate.hold();
  try {
    await o.sink.drain();
    await o.sink.exclusive(async () => {
      for (let attempt = 0; context.open(); attempt += 1) {
        try {
          await o.environment.reopen();
          if (attempt > 0) context.log('info', 'embedded store: reopened; calls are served again', {});
          return;
        } catch (e) {
          const cause = e instanceof Error ? e.message : String(e);
          if (attempt === 0) {
            context.log('error', `embedded store: cannot reopen the store: ${cause}`, {});
            o.gate.refuse(new StoreUnavailableError(`the embedded store cannot reopen its data: ${cause}`));
          }
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    });
  } finally {
    o.gate.release();
  }
  const after = o.refresher.resident();
  context.log('info', 'embedded store: let go of its mapped pages', {
    ...(before === null || after === null ? {} : { released_bytes: before - after }),
    paused_ms: Math.round(performance.now() - started),
  });
};
