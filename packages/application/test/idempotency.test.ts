import { expect } from 'chai';
import { isKeptStatus, type IdempotencyDecision, type StoredAnswer } from '../src/index.js';
import { world } from './support/world.js';

const answer = (status: number): StoredAnswer => ({
  status,
  headers: { 'Content-Type': 'application/json' },
  body: Uint8Array.from([123, 125]),
});

const finishOf = (d: IdempotencyDecision) => {
  if (d.kind !== 'run') throw new Error(`expected to run, got ${d.kind}`);
  return d.finish;
};

describe('use case: idempotency keys', () => {
  it('runs the first request, then replays its kept answer to a repeat', async () => {
    const w = await world();
    const finish = finishOf(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp'));
    await finish(answer(201));
    expect(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).to.deep.equal({
      kind: 'replay',
      answer: answer(201),
    });
  });

  it('refuses a repeat with another fingerprint, finished or still running', async () => {
    const w = await world();
    const finish = finishOf(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp'));
    expect(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'other')).to.deep.equal({ kind: 'mismatch' });
    await finish(answer(201));
    expect(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'other')).to.deep.equal({ kind: 'mismatch' });
  });

  it('answers in flight while the first request runs', async () => {
    const w = await world();
    await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp');
    expect(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).to.deep.equal({ kind: 'in_flight' });
  });

  for (const status of [500, 503, 401, 409, 429]) {
    it(`does not keep a ${status}: a repeat runs again`, async () => {
      const w = await world();
      await finishOf(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp'))(answer(status));
      expect((await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).kind).to.equal('run');
    });
  }

  it('keeps 2xx and 4xx answers but 401, 409 and 429', () => {
    expect([200, 201, 204, 299, 400, 403, 404, 410, 413, 415, 422, 499].every(isKeptStatus)).to.equal(true);
    expect([199, 300, 301, 399, 401, 409, 429, 500, 502, 503].some(isKeptStatus)).to.equal(false);
  });

  it('a request that ended with no answer to keep leaves the key free for a repeat', async () => {
    const w = await world();
    await finishOf(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp'))(null);
    expect((await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).kind).to.equal('run');
  });

  it('scopes keys to the user (all their tokens), and to the client address without a user', async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp');
    expect((await w.app.idempotency.begin(ada, '10.0.0.1', 'k1', 'fp')).kind).to.equal('run');
    expect((await w.app.idempotency.begin(null, '10.0.0.1', 'k1', 'fp')).kind).to.equal('run');
    expect((await w.app.idempotency.begin(null, '10.0.0.2', 'k1', 'fp')).kind).to.equal('run');
    expect((await w.app.idempotency.begin(null, '10.0.0.1', 'k1', 'fp')).kind).to.equal('in_flight');
    // Another token of the same user shares the scope: the caller is the user, not the token.
    expect((await w.app.idempotency.begin(await w.refreshed(ada), '10.0.0.9', 'k1', 'fp')).kind).to.equal('in_flight');
  });

  it('forgets a key and its answer after 24 hours', async () => {
    const w = await world();
    await finishOf(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp'))(answer(201));
    w.clock.advance(24 * 3600 * 1000 - 1);
    expect((await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).kind).to.equal('replay');
    w.clock.advance(1);
    expect((await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'other')).kind).to.equal('run');
  });

  it('lets a repeat run when the first claim was abandoned for longer than the lease', async () => {
    const w = await world();
    await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp');
    w.clock.advance(59_999);
    expect((await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).kind).to.equal('in_flight');
    w.clock.advance(1);
    expect((await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).kind).to.equal('run');
  });

  it('never runs again a request that ran in its guard and lost its answer: answer_lost past the lease, until the key expires', async () => {
    const w = await world();
    const first = await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp');
    if (first.kind !== 'run') throw new Error(`expected to run, got ${first.kind}`);
    expect(await first.guard(() => Promise.resolve('wrote'))).to.equal('wrote');
    // Its process died here: the answer is never finished.
    w.clock.advance(59_999);
    expect((await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).kind).to.equal('in_flight');
    w.clock.advance(1);
    expect(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).to.deep.equal({ kind: 'answer_lost' });
    expect(await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'other')).to.deep.equal({ kind: 'mismatch' });
    w.clock.advance(24 * 3600 * 1000 - 60_000);
    expect((await w.app.idempotency.begin(w.admin, '10.0.0.1', 'k1', 'fp')).kind).to.equal('run');
  });
});
