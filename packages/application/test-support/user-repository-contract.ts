import type { User } from '@support/domain';
import { expect } from 'chai';
import type { Page } from '../src/index.js';
import { aUser, groupId, minutes, T0, userId } from './mothers.js';
import { expectPagingLimit } from './paging-limit.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

const ids = (page: Page<User> | readonly User[]): number[] => ('items' in page ? page.items : page).map((u) => u.id);
const byId = (a: User, b: User): number => a.id - b.id;

/** The UserRepository port's promises (see its doc comments), for any store. */
export function describeUserRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: UserRepository contract`, () => {
    const store = freshStorePerTest(makeStore);
    const users = () => store().users;
    const insertAll = async (...us: User[]): Promise<void> => {
      for (const u of us) expect(await users().insert(u)).to.equal('ok');
    };

    describe('insert and find', () => {
      it('gives back every field as stored', async () => {
        const grace = aUser({
          id: 3,
          name: 'Grace Hopper',
          email: 'Grace@Example.com',
          role: 'agent',
          groupIds: [2, 5],
          createdAt: T0,
          updatedAt: T0 + minutes(1),
          version: 4,
        });
        await insertAll(grace);
        expect(await users().findById(userId(3))).to.deep.equal(grace);
        expect(await users().findById(userId(4))).to.equal(null);
      });

      it('refuses an e-mail another user has, compared without regard to case, and stores nothing', async () => {
        await insertAll(aUser({ id: 1, email: 'ada@example.com' }));
        expect(await users().insert(aUser({ id: 2, email: 'ADA@Example.COM' }))).to.equal('email_taken');
        expect(await users().findById(userId(2))).to.equal(null);
        expect(await users().count()).to.equal(1);
      });

      it('finds a user by e-mail without regard to case', async () => {
        const ada = aUser({ id: 1, email: 'Ada.Lovelace@Example.com' });
        await insertAll(ada, aUser({ id: 2, email: 'grace@example.com' }));
        expect(await users().findByEmail('ada.lovelace@example.COM')).to.deep.equal(ada);
        expect(await users().findByEmail('Ada.Lovelace@Example.com')).to.deep.equal(ada);
        expect(await users().findByEmail('nobody@example.com')).to.equal(null);
      });

      it('findByIds answers the users that exist among the ids, in any order', async () => {
        const [a, b, c] = [aUser({ id: 1 }), aUser({ id: 2 }), aUser({ id: 3 })];
        await insertAll(a, b, c);
        const found = await users().findByIds([userId(3), userId(9), userId(1)]);
        expect([...found].sort(byId)).to.deep.equal([a, c]);
        expect(await users().findByIds([])).to.deep.equal([]);
        expect(await users().findByIds([userId(8)])).to.deep.equal([]);
      });
    });

    describe('update', () => {
      it('writes the user when the stored one has the expected version', async () => {
        const u = aUser({ id: 1, email: 'ada@example.com' });
        await insertAll(u);
        const next = {
          ...u,
          name: 'Ada King',
          email: 'Ada@Example.com' as User['email'],
          role: 'admin' as const,
          version: 2,
        };
        expect(await users().update(next, 1)).to.equal('ok');
        expect(await users().findById(userId(1))).to.deep.equal(next);
      });

      it('refuses a stale expected version and changes nothing', async () => {
        const u = aUser({ id: 1, version: 3 });
        await insertAll(u);
        expect(await users().update({ ...u, name: 'Changed', version: 4 }, 2)).to.equal('version_mismatch');
        expect(await users().findById(userId(1))).to.deep.equal(u);
      });

      it('answers version_mismatch for a user that does not exist, and does not create it', async () => {
        expect(await users().update(aUser({ id: 9, version: 2 }), 1)).to.equal('version_mismatch');
        expect(await users().findById(userId(9))).to.equal(null);
      });

      it("refuses another user's e-mail in any case, and changes nothing", async () => {
        const ada = aUser({ id: 1, email: 'ada@example.com' });
        const grace = aUser({ id: 2, email: 'grace@example.com' });
        await insertAll(ada, grace);
        const clash = { ...grace, name: 'Grace', email: 'ADA@example.com' as User['email'], version: 2 };
        expect(await users().update(clash, 1)).to.equal('email_taken');
        expect(await users().findById(userId(2))).to.deep.equal(grace);
        expect(await users().findByEmail('ada@example.com')).to.deep.equal(ada);
        expect(await users().findByEmail('grace@example.com')).to.deep.equal(grace);
      });

      it('frees the old e-mail and takes the new one', async () => {
        const ada = aUser({ id: 1, email: 'ada@example.com' });
        await insertAll(ada);
        const moved = { ...ada, email: 'augusta@example.com' as User['email'], version: 2 };
        expect(await users().update(moved, 1)).to.equal('ok');
        expect(await users().findByEmail('ada@example.com')).to.equal(null);
        expect(await users().findByEmail('AUGUSTA@example.com')).to.deep.equal(moved);
        expect(await users().insert(aUser({ id: 2, email: 'Ada@example.com' }))).to.equal('ok');
      });

      it('gives an e-mail to exactly one of two concurrent users that want it', async () => {
        await insertAll(aUser({ id: 1, email: 'one@example.com' }), aUser({ id: 2, email: 'two@example.com' }));
        const results = await Promise.all([
          users().update({ ...aUser({ id: 1, email: 'same@example.com' }), version: 2 }, 1),
          users().update({ ...aUser({ id: 2, email: 'SAME@example.com' }), version: 2 }, 1),
          users().insert(aUser({ id: 3, email: 'Same@Example.com' })),
        ]);
        expect(results.filter((r) => r === 'ok')).to.have.length(1);
        expect(results.filter((r) => r === 'email_taken')).to.have.length(2);
      });
    });

    describe('delete', () => {
      it('deletes a user, frees their e-mail and answers whether there was one', async () => {
        await insertAll(aUser({ id: 1, email: 'ada@example.com', groupIds: [4] }), aUser({ id: 2 }));
        expect(await users().delete(userId(1), Date.now())).to.equal(true);
        expect(await users().findById(userId(1))).to.equal(null);
        expect(await users().findByEmail('ada@example.com')).to.equal(null);
        expect(await users().count()).to.equal(1);
        expect(await users().list(groupId(4), 0, 10)).to.deep.equal({ items: [], total: 0 });
        expect(await users().delete(userId(1), Date.now())).to.equal(false);
        expect(await users().insert(aUser({ id: 3, email: 'ADA@example.com' }))).to.equal('ok');
      });
    });

    describe('list and count', () => {
      it('lists users by id ascending, page by page, with the total', async () => {
        await insertAll(...[5, 2, 9, 1, 7].map((id) => aUser({ id })));
        expect(ids(await users().list(null, 0, 2))).to.deep.equal([1, 2]);
        expect(ids(await users().list(null, 2, 2))).to.deep.equal([5, 7]);
        expect(await users().list(null, 4, 2)).to.deep.equal({ items: [aUser({ id: 9 })], total: 5 });
        expect(await users().list(null, 5, 2)).to.deep.equal({ items: [], total: 5 });
        expect((await users().list(null, 0, 2)).total).to.equal(5);
      });

      it('serves pages that start before pageBounds.maxOffset, members too; a deeper one rejects (RangeError)', async () => {
        await insertAll(aUser({ id: 1, groupIds: [2] }));
        await expectPagingLimit((offset, limit) => users().list(null, offset, limit), 1);
        await expectPagingLimit((offset, limit) => users().list(groupId(2), offset, limit), 1);
      });

      it("lists only a group's members, by id ascending, with their total", async () => {
        await insertAll(
          aUser({ id: 4, groupIds: [1, 2] }),
          aUser({ id: 1, groupIds: [2] }),
          aUser({ id: 3, groupIds: [1] }),
          aUser({ id: 2, groupIds: [] }),
          aUser({ id: 5, groupIds: [2] }),
        );
        expect(await users().list(groupId(2), 0, 10).then(ids)).to.deep.equal([1, 4, 5]);
        expect(await users().list(groupId(2), 1, 1)).to.deep.equal({
          items: [aUser({ id: 4, groupIds: [1, 2] })],
          total: 3,
        });
        expect(await users().list(groupId(1), 0, 10).then(ids)).to.deep.equal([3, 4]);
        expect(await users().list(groupId(9), 0, 10)).to.deep.equal({ items: [], total: 0 });
      });

      it('follows membership changes made by update', async () => {
        const u = aUser({ id: 1, groupIds: [1] });
        await insertAll(u);
        expect(await users().update({ ...u, groupIds: [groupId(2)], version: 2 }, 1)).to.equal('ok');
        expect(await users().list(groupId(1), 0, 10)).to.deep.equal({ items: [], total: 0 });
        expect(await users().list(groupId(2), 0, 10).then(ids)).to.deep.equal([1]);
      });

      it('counts every user', async () => {
        expect(await users().count()).to.equal(0);
        await insertAll(aUser({ id: 1 }), aUser({ id: 2 }), aUser({ id: 3 }));
        expect(await users().count()).to.equal(3);
      });
    });
  });
}
