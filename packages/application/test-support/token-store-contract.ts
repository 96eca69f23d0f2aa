import { expect } from 'chai';
import { aTokenRecord, hours, minutes } from './mothers.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

/**
 * The TokenStore port's promises (see its doc comments), for any store. Tokens expire in the
 * future of real time and each test asks with a `now` that never goes back, because a store
 * may forget expired tokens by its own clock.
 */
export function describeTokenStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: TokenStore contract`, () => {
    const store = freshStorePerTest(makeStore);
    const tokens = () => store().tokens;

    it('finds a saved token by its hash, with every field', async () => {
      const now = Date.now();
      const record = aTokenRecord({
        hash: 'h-access',
        kind: 'access',
        userId: 7,
        familyId: 'fam-7',
        expiresAt: now + hours(1),
      });
      await tokens().save(record);
      expect(await tokens().find('h-access', now)).to.deep.equal(record);
      expect(await tokens().find('h-unknown', now)).to.equal(null);
    });

    it('keeps the scopes a login was narrowed to and when it began, through find and consume', async () => {
      const now = Date.now();
      const record = aTokenRecord({
        hash: 'h-scoped',
        kind: 'refresh',
        expiresAt: now + hours(1),
        scopes: ['tickets:read', 'events:read'],
        authenticatedAt: now - hours(2),
      });
      await tokens().save(record);
      expect(await tokens().find('h-scoped', now)).to.deep.equal(record);
      expect(await tokens().consume('h-scoped', now)).to.deep.equal({ status: 'consumed', record });
    });

    it('saving a hash that is already stored is not an error and keeps the stored token as it is', async () => {
      const now = Date.now();
      const record = aTokenRecord({ hash: 'h-twice', expiresAt: now + hours(1) });
      await tokens().save(record);
      await tokens().save(record);
      expect(await tokens().find('h-twice', now)).to.deep.equal(record);
      expect(await tokens().consume('h-twice', now)).to.deep.equal({ status: 'consumed', record });
      await tokens().save(record);
      expect(await tokens().consume('h-twice', now + 1)).to.deep.equal({ status: 'reused', record });
    });

    it('stops finding a token once `now` reaches its expiresAt', async () => {
      const now = Date.now();
      const expiresAt = now + hours(1);
      await tokens().save(aTokenRecord({ hash: 'h', expiresAt }));
      expect(await tokens().find('h', expiresAt - 1)).to.deep.equal(aTokenRecord({ hash: 'h', expiresAt }));
      expect(await tokens().find('h', expiresAt)).to.equal(null);
      expect(await tokens().find('h', expiresAt + minutes(1))).to.equal(null);
    });

    describe('consume', () => {
      it("answers 'consumed' to the first use, then 'reused' to every replay, with the record", async () => {
        const now = Date.now();
        const record = aTokenRecord({ hash: 'h-refresh' });
        await tokens().save(record);
        expect(await tokens().consume('h-refresh', now)).to.deep.equal({ status: 'consumed', record });
        expect(await tokens().consume('h-refresh', now + 1)).to.deep.equal({ status: 'reused', record });
        expect(await tokens().consume('h-refresh', now + 2)).to.deep.equal({ status: 'reused', record });
      });

      it('makes a consumed token impossible to find', async () => {
        const now = Date.now();
        await tokens().save(aTokenRecord({ hash: 'h' }));
        await tokens().consume('h', now);
        expect(await tokens().find('h', now)).to.equal(null);
      });

      it("answers 'missing' for an unknown token and for an expired one", async () => {
        const now = Date.now();
        const expiresAt = now + hours(1);
        await tokens().save(aTokenRecord({ hash: 'h', expiresAt }));
        expect(await tokens().consume('h-unknown', now)).to.deep.equal({ status: 'missing' });
        expect(await tokens().consume('h', expiresAt)).to.deep.equal({ status: 'missing' });
      });

      it("answers 'missing' to a replay once the used token has expired", async () => {
        const now = Date.now();
        const expiresAt = now + hours(1);
        await tokens().save(aTokenRecord({ hash: 'h', expiresAt }));
        expect((await tokens().consume('h', now)).status).to.equal('consumed');
        expect((await tokens().consume('h', expiresAt - 1)).status).to.equal('reused');
        expect(await tokens().consume('h', expiresAt + 1)).to.deep.equal({ status: 'missing' });
      });

      it("is atomic: of many concurrent uses exactly one is 'consumed'", async () => {
        const now = Date.now();
        await tokens().save(aTokenRecord({ hash: 'h' }));
        const results = await Promise.all(Array.from({ length: 20 }, () => tokens().consume('h', now)));
        expect(results.filter((r) => r.status === 'consumed')).to.have.length(1);
        expect(results.filter((r) => r.status === 'reused')).to.have.length(19);
      });
    });

    describe('revocation', () => {
      it('revoke forgets one token and no other', async () => {
        const now = Date.now();
        const expiresAt = now + hours(1);
        await tokens().save(aTokenRecord({ hash: 'h1', expiresAt }));
        await tokens().save(aTokenRecord({ hash: 'h2', expiresAt }));
        await tokens().revoke('h1');
        await tokens().revoke('h-unknown');
        expect(await tokens().find('h1', now)).to.equal(null);
        expect(await tokens().consume('h1', now)).to.deep.equal({ status: 'missing' });
        expect(await tokens().find('h2', now)).to.deep.equal(aTokenRecord({ hash: 'h2', expiresAt }));
      });

      it('revokeFamily forgets every token of the family, used or not, and no other', async () => {
        const now = Date.now();
        const expiresAt = now + hours(1);
        await tokens().save(aTokenRecord({ hash: 'a1', familyId: 'A', kind: 'access', expiresAt }));
        await tokens().save(aTokenRecord({ hash: 'r1', familyId: 'A', expiresAt }));
        await tokens().save(aTokenRecord({ hash: 'r2', familyId: 'A', expiresAt }));
        await tokens().save(aTokenRecord({ hash: 'b1', familyId: 'B', expiresAt }));
        await tokens().consume('r1', now);
        await tokens().revokeFamily('A');
        for (const hash of ['a1', 'r2']) expect(await tokens().find(hash, now)).to.equal(null);
        expect(await tokens().consume('r1', now)).to.deep.equal({ status: 'missing' });
        expect(await tokens().find('b1', now)).to.deep.equal(aTokenRecord({ hash: 'b1', familyId: 'B', expiresAt }));
      });
    });
  });
}
