import { expect } from 'chai';
import { ClaimGuard } from '../src/claim-guard.js';

// The guard of a keyed request (IdempotencyStore.guard on the memory engine): the first write
// made in the request's asynchronous context marks its claim, once; overlapping requests keep
// apart; and the storage, disabled whenever no guarded request runs (its promise hook costs
// every request on Node 20), still marks a request that starts or runs on after another ended.

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('ClaimGuard: a keyed request first write marks its own claim', () => {
  it('marks each overlapping request once, by its own write, whichever ends first', async () => {
    const guard = new ClaimGuard();
    const marked: string[] = [];
    guard.register((key, owner) => marked.push(`${key}/${owner}`));
    let releaseA = (): void => undefined;
    const a = guard.guarded(true, 'ka', 'a', async () => {
      await new Promise<void>((r) => (releaseA = r));
      guard.markRunning();
      guard.markRunning();
    });
    const b = guard.guarded(true, 'kb', 'b', async () => {
      await tick();
      guard.markRunning();
    });
    await b;
    // b has ended: a still runs, in its own context.
    releaseA();
    await a;
    expect(marked).to.deep.equal(['kb/b', 'ka/a']);
    // No request runs: a write outside any marks nothing; a new request marks again.
    guard.markRunning();
    await guard.guarded(true, 'kc', 'c', async () => {
      await tick();
      guard.markRunning();
    });
    expect(marked).to.deep.equal(['kb/b', 'ka/a', 'kc/c']);
  });

  it('without a durable sink marks the claim as the request starts, and passes on a failure', async () => {
    const guard = new ClaimGuard();
    const marked: string[] = [];
    guard.register((key, owner) => marked.push(`${key}/${owner}`));
    const failed = await guard
      .guarded(false, 'k', 'o', () => Promise.reject(new Error('boom')))
      .then(
        () => null,
        (e: unknown) => (e as Error).message,
      );
    expect([marked, failed]).to.deep.equal([['k/o'], 'boom']);
  });
});
