import { expect } from 'chai';
import type { PersonalTokenRecord } from '../src/index.js';
import { hours, minutes, userId } from './mothers.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

const aPersonalToken = (id: number, spec: Partial<PersonalTokenRecord> = {}): PersonalTokenRecord => {
  const now = Date.now();
  return {
    id,
    userId: userId(1),
    name: `token ${String(id)}`,
    scopes: ['tickets:read'],
    hash: `hash-${String(id)}`,
    createdAt: now,
    expiresAt: now + hours(24),
    lastUsedAt: null,
    ...spec,
  };
};

/** The PersonalTokenStore port's promises (see its doc comments), for any store. */
export function describePersonalTokenStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: PersonalTokenStore contract`, () => {
    const store = freshStorePerTest(makeStore);
    const tokens = () => store().personalTokens;

    it('finds a token by hash until it expires, and by id, with every field', async () => {
      const t = aPersonalToken(1, { scopes: ['tickets:write', 'events:read'] });
      await tokens().insert(t);
      expect(await tokens().findByHash('hash-1', t.createdAt)).to.deep.equal(t);
      expect(await tokens().findByHash('hash-1', t.expiresAt - 1)).to.deep.equal(t);
      expect(await tokens().findByHash('hash-1', t.expiresAt)).to.equal(null);
      expect(await tokens().findByHash('hash-2', t.createdAt)).to.equal(null);
      expect(await tokens().findById(1)).to.deep.equal(t);
      expect(await tokens().findById(2)).to.equal(null);
    });

    it("lists a user's tokens oldest first, paged, expired ones too, never another user's", async () => {
      for (let i = 1; i <= 5; i++)
        await tokens().insert(
          aPersonalToken(i, {
            userId: userId(i % 2 === 0 ? 2 : 1),
            expiresAt: i === 3 ? Date.now() - 1 : Date.now() + hours(1),
          }),
        );
      const all = await tokens().list(userId(1), 0, 10);
      expect(all.total).to.equal(3);
      expect(all.items.map((t) => t.id)).to.deep.equal([1, 3, 5]);
      expect((await tokens().list(userId(1), 1, 1)).items.map((t) => t.id)).to.deep.equal([3]);
      expect(await tokens().list(userId(9), 0, 10)).to.deep.equal({ items: [], total: 0 });
    });

    it('revokes one token at once', async () => {
      for (let i = 1; i <= 4; i++) await tokens().insert(aPersonalToken(i, { userId: userId(i <= 3 ? 1 : 2) }));
      expect(await tokens().revoke(2)).to.equal(true);
      expect(await tokens().revoke(2)).to.equal(false);
      expect(await tokens().findByHash('hash-2', Date.now())).to.equal(null);
      expect((await tokens().list(userId(1), 0, 10)).items.map((t) => t.id)).to.deep.equal([1, 3]);
    });

    it('with a limit, stores a token only while its user holds fewer live ones (expired ones do not count)', async () => {
      const now = Date.now();
      const limit = { maxLive: 3, now };
      expect(await tokens().insert(aPersonalToken(1, { expiresAt: now - 1 }), limit)).to.equal(true);
      for (let i = 2; i <= 4; i++) expect(await tokens().insert(aPersonalToken(i), limit)).to.equal(true);
      expect(await tokens().insert(aPersonalToken(5), limit), 'a fourth live one').to.equal(false);
      expect(await tokens().findById(5), 'nothing stored').to.equal(null);
      expect(await tokens().findByHash('hash-5', now)).to.equal(null);
      expect(await tokens().insert(aPersonalToken(6, { userId: userId(2) }), limit), 'another user').to.equal(true);
      expect(await tokens().insert(aPersonalToken(7), undefined), 'without a limit').to.equal(true);
      expect(await tokens().revoke(7)).to.equal(true);
      expect(await tokens().revoke(2)).to.equal(true);
      expect(await tokens().insert(aPersonalToken(8), limit), 'a place freed').to.equal(true);
      const concurrent = await Promise.all([9, 10, 11].map((i) => tokens().insert(aPersonalToken(i), limit)));
      expect(concurrent, 'concurrent inserts never pass the limit').to.deep.equal([false, false, false]);
      expect((await tokens().list(userId(1), 0, 20)).total).to.equal(4);
    });

    it('writes last_used_at at most once an interval', async () => {
      const t = aPersonalToken(1);
      await tokens().insert(t);
      const at = t.createdAt + minutes(5);
      expect(await tokens().touch(1, at, minutes(1))).to.equal(true);
      expect(await tokens().touch(1, at + minutes(1) - 1, minutes(1))).to.equal(false);
      expect((await tokens().findById(1))?.lastUsedAt).to.equal(at);
      expect(await tokens().touch(1, at + minutes(1), minutes(1))).to.equal(true);
      expect((await tokens().findByHash('hash-1', at))?.lastUsedAt).to.equal(at + minutes(1));
      expect(await tokens().touch(9, at, minutes(1))).to.equal(false);
    });
  });
}
