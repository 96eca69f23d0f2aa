import { expect } from 'chai';
import type { IdempotencyClaim, StoredAnswer } from '../src/index.js';
import { aTokenRecord, hours } from './mothers.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

/**
 * The IdempotencyStore port's promises (see its doc comments), for any store. Instants lie in
 * the present of real time, because a store may forget a record once it has expired.
 */
export function describeIdempotencyStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: IdempotencyStore contract`, () => {
    const store = freshStorePerTest(makeStore);
    const keys = () => store().idempotency;
    const claimAt = (owner: string, now: number, extra: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
      owner,
      fingerprint: `fp-${owner}`,
      now,
      leaseUntil: now + 60_000,
      expiresAt: now + hours(24),
      ...extra,
    });
    const anAnswer = (status = 201): StoredAnswer => ({
      status,
      headers: {
        Location: 'https://example.test/v1/tickets/7',
        ETag: '"abc"',
        'Content-Type': 'application/json; charset=utf-8',
      },
      // Not UTF-8 on purpose: the store keeps bytes, not text.
      body: Uint8Array.from([0x7b, 0x0a, 0xff, 0x00, 0xfe, 0x7d]),
    });

    it('lets the first claim of a key win and tells later claims it is in flight, with its fingerprint', async () => {
      const now = Date.now();
      expect(await keys().claim('user:1', 'k1', claimAt('a', now))).to.deep.equal({ kind: 'claimed' });
      expect(await keys().claim('user:1', 'k1', claimAt('b', now + 10))).to.deep.equal({
        kind: 'in_flight',
        fingerprint: 'fp-a',
      });
    });

    it('keeps the answer of a completed claim and gives it back byte for byte', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now));
      expect(await keys().complete('user:1', 'k1', 'a', anAnswer())).to.equal(true);
      const again = await keys().claim('user:1', 'k1', claimAt('b', now + 10));
      expect(again).to.deep.equal({ kind: 'completed', fingerprint: 'fp-a', answer: anAnswer() });
      if (again.kind !== 'completed') throw new Error('unreachable');
      expect([...again.answer.body]).to.deep.equal([0x7b, 0x0a, 0xff, 0x00, 0xfe, 0x7d]);
    });

    it('scopes keys to their caller: the same key of another scope is a fresh claim', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now));
      expect(await keys().claim('user:2', 'k1', claimAt('b', now))).to.deep.equal({ kind: 'claimed' });
      expect(await keys().claim('ip:10.0.0.1', 'k1', claimAt('c', now))).to.deep.equal({ kind: 'claimed' });
    });

    it('completes or releases only for the claim holder, and only once', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now));
      expect(await keys().complete('user:1', 'k1', 'intruder', anAnswer())).to.equal(false);
      await keys().release('user:1', 'k1', 'intruder');
      expect(await keys().claim('user:1', 'k1', claimAt('b', now))).to.deep.equal({
        kind: 'in_flight',
        fingerprint: 'fp-a',
      });
      expect(await keys().complete('user:1', 'k1', 'a', anAnswer(201))).to.equal(true);
      expect(await keys().complete('user:1', 'k1', 'a', anAnswer(500))).to.equal(false);
      // A kept answer is not released.
      await keys().release('user:1', 'k1', 'a');
      const again = await keys().claim('user:1', 'k1', claimAt('c', now));
      expect(again.kind === 'completed' ? again.answer.status : again.kind).to.equal(201);
    });

    it('frees a released key for the next claim', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now));
      await keys().release('user:1', 'k1', 'a');
      expect(await keys().claim('user:1', 'k1', claimAt('b', now + 10))).to.deep.equal({ kind: 'claimed' });
      expect(await keys().complete('user:1', 'k1', 'a', anAnswer())).to.equal(false);
      expect(await keys().complete('user:1', 'k1', 'b', anAnswer())).to.equal(true);
    });

    it('lets an unfinished claim past its lease be taken over; its holder then cannot complete it', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now, { leaseUntil: now + 1000 }));
      expect(await keys().claim('user:1', 'k1', claimAt('b', now + 999))).to.deep.equal({
        kind: 'in_flight',
        fingerprint: 'fp-a',
      });
      expect(await keys().claim('user:1', 'k1', claimAt('b', now + 1000))).to.deep.equal({ kind: 'claimed' });
      expect(await keys().complete('user:1', 'k1', 'a', anAnswer())).to.equal(false);
      expect(await keys().claim('user:1', 'k1', claimAt('c', now + 1001))).to.deep.equal({
        kind: 'in_flight',
        fingerprint: 'fp-b',
      });
    });

    it('keeps a completed answer past the lease, until the record expires', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now, { leaseUntil: now + 1000, expiresAt: now + 5000 }));
      await keys().complete('user:1', 'k1', 'a', anAnswer());
      expect((await keys().claim('user:1', 'k1', claimAt('b', now + 4999))).kind).to.equal('completed');
      expect(await keys().claim('user:1', 'k1', claimAt('b', now + 5000))).to.deep.equal({ kind: 'claimed' });
    });

    it('is atomic: of 20 concurrent claims of one key exactly one wins', async () => {
      const now = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => keys().claim('user:1', 'race', claimAt(`o${i}`, now))),
      );
      const winners = outcomes.filter((o) => o.kind === 'claimed');
      expect(winners).to.have.length(1);
      const losers = outcomes.filter((o) => o.kind === 'in_flight');
      expect(losers).to.have.length(19);
      const winner = outcomes.findIndex((o) => o.kind === 'claimed');
      for (const o of losers) expect(o).to.deep.equal({ kind: 'in_flight', fingerprint: `fp-o${winner}` });
    });

    it('is atomic when taking over a dead claim: of 10 concurrent claims exactly one wins', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'dead', claimAt('a', now, { leaseUntil: now + 1 }));
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => keys().claim('user:1', 'dead', claimAt(`o${i}`, now + 2))),
      );
      expect(outcomes.filter((o) => o.kind === 'claimed')).to.have.length(1);
      expect(outcomes.filter((o) => o.kind === 'in_flight')).to.have.length(9);
    });

    it('never lets a claim whose request wrote be taken over: past its lease it answers answer_lost, until it expires', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now, { leaseUntil: now + 1000, expiresAt: now + 5000 }));
      const ran = await keys().guard('user:1', 'k1', 'a', async () => {
        await store().tokens.save(aTokenRecord({ hash: 'h-guarded' }));
        return 'ran';
      });
      expect(ran).to.equal('ran');
      expect(await keys().claim('user:1', 'k1', claimAt('b', now + 999))).to.deep.equal({
        kind: 'in_flight',
        fingerprint: 'fp-a',
      });
      for (const at of [now + 1000, now + 4999])
        expect(await keys().claim('user:1', 'k1', claimAt('b', at))).to.deep.equal({
          kind: 'answer_lost',
          fingerprint: 'fp-a',
        });
      // Its holder may still keep the answer (a request slower than its lease), and then it is replayed.
      expect(await keys().complete('user:1', 'k1', 'a', anAnswer())).to.equal(true);
      expect((await keys().claim('user:1', 'k1', claimAt('b', now + 4999))).kind).to.equal('completed');
      expect(await keys().claim('user:1', 'k1', claimAt('b', now + 5000))).to.deep.equal({ kind: 'claimed' });
    });

    it('replays a guarded claim once its answer is kept, and frees it when released', async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now, { leaseUntil: now + 1000 }));
      await keys().guard('user:1', 'k1', 'a', () => store().tokens.save(aTokenRecord({ hash: 'h-kept' })));
      await keys().complete('user:1', 'k1', 'a', anAnswer());
      expect((await keys().claim('user:1', 'k1', claimAt('b', now + 2000))).kind).to.equal('completed');
      await keys().claim('user:1', 'k2', claimAt('c', now, { leaseUntil: now + 1000 }));
      await keys().guard('user:1', 'k2', 'c', () => store().tokens.save(aTokenRecord({ hash: 'h-released' })));
      await keys().release('user:1', 'k2', 'c');
      expect(await keys().claim('user:1', 'k2', claimAt('d', now + 10))).to.deep.equal({ kind: 'claimed' });
    });

    it("guards only its own claim: another's guard leaves it free to be taken over, and the guard passes on a failure", async () => {
      const now = Date.now();
      await keys().claim('user:1', 'k1', claimAt('a', now, { leaseUntil: now + 1000 }));
      await keys().guard('user:1', 'k1', 'intruder', () => store().tokens.save(aTokenRecord({ hash: 'h-other' })));
      expect(await keys().claim('user:1', 'k1', claimAt('b', now + 1000))).to.deep.equal({ kind: 'claimed' });
      let caught: unknown = null;
      await keys()
        .guard('user:1', 'k1', 'b', () => Promise.reject(new Error('the request failed')))
        .catch((e: unknown) => {
          caught = e;
        });
      expect((caught as Error | null)?.message).to.equal('the request failed');
    });

    it('keeps keys apart that differ only in characters a store might fold or split on', async () => {
      const now = Date.now();
      for (const [i, k] of ['a b', 'A b', 'a  b', 'a.b', '$a', 'a:b'].entries()) {
        expect(await keys().claim('user:1', k, claimAt(`o${i}`, now)), k).to.deep.equal({ kind: 'claimed' });
      }
    });
  });
}
