import { anUpload, T0, userId } from '@support/application/testing';
import { expect } from 'chai';
import { engineStore } from './support/mingo-engine.js';

// The counters (id sequences, rate-limit windows, upload counters) when their document does
// not exist yet and many callers reach it at once, on the in-process engine playing MongoDB's
// upsert (atomic) and DocumentDB's (outside a transaction its insert replaces one made
// meanwhile, no error: D3 in docs/mongodb.md). The adapter creates the counters it writes
// outside a transaction by insert, never by upsert (src/counters.ts); the upload counter is
// written in a transaction, where two first upserts conflict.

const upsertModes = ['atomic', 'replace'] as const;
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
const engineOn = (mode: (typeof upsertModes)[number]) => {
  const store = engineStore();
  store.engine.core.upsertById = mode;
  return store;
};

describe('Mongo counters created under concurrency (in-process engine)', () => {
  it("the engine plays DocumentDB's upsert: 20 first $inc upserts of one _id at once all answer 1, the count ends at 1, no error", async () => {
    const { engine } = engineOn('replace');
    const counters = engine.collection('counters');
    const answers = await Promise.all(
      range(20).map(async () => {
        const d = await counters.findOneAndUpdate(
          { _id: 'x' },
          { $inc: { seq: 1 } },
          { upsert: true, returnDocument: 'after' },
        );
        return d?.['seq'] as number;
      }),
    );
    expect(answers).to.deep.equal(range(20).map(() => 1));
    expect(engine.collection('counters').docs).to.deep.equal([{ _id: 'x', seq: 1 }]);
  });

  for (const mode of upsertModes) {
    describe(`upserts by _id: ${mode === 'atomic' ? "MongoDB's (atomic)" : "DocumentDB's (a later insert replaces)"}`, () => {
      it('100 ids of a new sequence taken at once are 1 to 100, each once; the next is 101', async () => {
        const store = engineOn(mode);
        const ids = await Promise.all(range(100).map(() => store.ids.next('ticket')));
        expect([...ids].sort((a, b) => a - b)).to.deep.equal(range(100));
        expect(await store.ids.next('ticket')).to.equal(101);
      });

      it('two new sequences taken at once, interleaved, each count 1 to 30', async () => {
        const store = engineOn(mode);
        const taken = await Promise.all(
          range(60).map(async (i) => ({
            name: i % 2 === 0 ? 'user' : 'group',
            id: await store.ids.next(i % 2 === 0 ? 'user' : 'group'),
          })),
        );
        for (const name of ['user', 'group'])
          expect(
            taken
              .filter((t) => t.name === name)
              .map((t) => t.id)
              .sort((a, b) => a - b),
          ).to.deep.equal(range(30));
      });

      it('50 first hits of a new rate-limit window at once are each counted: they answer 1 to 50, and the window counts 50', async () => {
        const store = engineOn(mode);
        const counts = await Promise.all(range(50).map(() => store.rateLimits.hit('login:a', 60_000, 60_000)));
        expect([...counts].sort((a, b) => a - b)).to.deep.equal(range(50));
        expect(await store.rateLimits.count('login:a', 60_000)).to.equal(50);
        const [stored] = store.engine.collection('rateLimits').docs;
        expect(stored?.['expiresAt'], 'created with its expiry').to.deep.equal(new Date(180_000));
      });

      it("a user's first uploads at once keep the limit of unattached uploads: 5 at once with a limit of 2 store 2", async () => {
        const store = engineOn(mode);
        const stored = await Promise.all(
          range(5).map((id) => store.attachments.insertUpload(anUpload({ id, uploaderId: 7 }), 2)),
        );
        expect(stored.filter(Boolean)).to.have.length(2);
        expect(await store.attachments.countUnattached(userId(7), T0)).to.equal(2);
      });
    });
  }
});
