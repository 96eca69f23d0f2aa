import { AsyncLocalStorage } from 'node:async_hooks';

/** The Idempotency-Key claim a request holds while it runs (`ClaimGuard.guarded`). */
interface GuardedClaim {
  readonly key: string;
  readonly owner: string;
  marked: boolean;
}

/**
 * The claim of the request running in this asynchronous context. One for every journal, so a
 * test engine reloaded from disk mid-request (reloadAfterEveryCall) still finds it.
 */
const guardedClaims = new AsyncLocalStorage<GuardedClaim>();

/**
 * How many guarded requests are running. On Node 20 an enabled AsyncLocalStorage puts a hook on
 * every promise the process makes (a loop of awaits measured 2-2.5x slower), so the storage is
 * disabled whenever no keyed request runs: requests without a key pay nothing then.
 */
let running = 0;

const guardedRun = async <T>(claim: GuardedClaim, work: () => Promise<T>): Promise<T> => {
  running += 1;
  try {
    return await guardedClaims.run(claim, work);
  } finally {
    running -= 1;
    if (running === 0) guardedClaims.disable();
  }
};

/**
 * How a request's first durable write marks its Idempotency-Key claim "written" in the same
 * commit (IdempotencyStore.guard): the journal calls `markRunning` inside every port call that
 * changed records, before it hands the changes to its sink; the idempotency store registers how
 * a claim is marked (a change in that same call).
 */
export class ClaimGuard {
  private mark: ((key: string, owner: string) => void) | null = null;

  /** The idempotency store's way of marking a claim written. */
  register(mark: (key: string, owner: string) => void): void {
    this.mark = mark;
  }

  /**
   * Runs `work`, the request holding the claim `key` of `owner`. `durable` false (no sink: a
   * crash keeps nothing): the claim is marked at once, so a request that outlives its lease is
   * still never run twice.
   */
  guarded<T>(durable: boolean, key: string, owner: string, work: () => Promise<T>): Promise<T> {
    if (!durable) {
      this.mark?.(key, owner);
      return work();
    }
    return guardedRun({ key, owner, marked: false }, work);
  }

  /** Inside a port call that changed records: marks the running request's claim written, in that call's changes, once. */
  markRunning(): void {
    const claim = guardedClaims.getStore();
    if (claim === undefined || claim.marked || this.mark === null) return;
    claim.marked = true;
    this.mark(claim.key, claim.owner);
  }
}
