import type { CallHooks } from './delegate.js';

/**
 * Tests only (EmbeddedStoreOptions.reloadAfterEveryCall): once no port call is running and
 * something was committed since the last load, memory is rebuilt from what LMDB holds, before
 * the call that settled last answers. A record no restorer brings back, or a restorer that
 * forgets a field, then fails the next read of a contract suite.
 */
export class ReloadAfterCalls<
  E,
  O extends { readonly sink: { drain(): Promise<void> }; engine: E },
> implements CallHooks {
  private running = 0;
  private written = false;

  constructor(
    /** The opened store: its sink (drained first), and its memory engine, replaced. */
    private readonly current: () => O,
    /** Loads a memory engine from what the disk holds. */
    private readonly load: (o: O) => E,
  ) {}

  /** A commit reached the disk. */
  committed(): void {
    this.written = true;
  }

  readonly started = (): void => {
    this.running += 1;
  };

  readonly settled = async (): Promise<void> => {
    this.running -= 1;
    if (this.running > 0) return;
    await this.current().sink.drain();
    // Another call may have started while the commits drained: it runs on this memory.
    if (this.running === 0 && this.written) {
      this.written = false;
      const o = this.current();
      o.engine = this.load(o);
    }
  };
}
