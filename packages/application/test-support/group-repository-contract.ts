import type { Group } from '@support/domain';
import { expect } from 'chai';
import type { Page } from '../src/index.js';
import { aGroup, groupId, minutes, T0 } from './mothers.js';
import { expectPagingLimit } from './paging-limit.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

const ids = (page: Page<Group>): number[] => page.items.map((g) => g.id);

/** The GroupRepository port's promises (see its doc comments), for any store. */
export function describeGroupRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: GroupRepository contract`, () => {
    const store = freshStorePerTest(makeStore);
    const groups = () => store().groups;
    const insertAll = async (...gs: Group[]): Promise<void> => {
      for (const g of gs) expect(await groups().insert(g)).to.equal('ok');
    };

    it('gives back every field as stored', async () => {
      const g = aGroup({
        id: 2,
        name: 'Level 2 — Réseau',
        description: 'Network people',
        createdAt: T0,
        updatedAt: T0 + minutes(3),
        version: 2,
      });
      await insertAll(g);
      expect(await groups().findById(groupId(2))).to.deep.equal(g);
      expect(await groups().findById(groupId(3))).to.equal(null);
    });

    it('refuses a name another group has, compared without regard to case, and stores nothing', async () => {
      await insertAll(aGroup({ id: 1, name: 'Billing' }));
      expect(await groups().insert(aGroup({ id: 2, name: 'BILLING' }))).to.equal('name_taken');
      expect(await groups().findById(groupId(2))).to.equal(null);
      expect((await groups().list(0, 10)).total).to.equal(1);
    });

    it('findByIds answers the groups that exist among the ids, in any order', async () => {
      const [a, b, c] = [aGroup({ id: 1 }), aGroup({ id: 2 }), aGroup({ id: 3 })];
      await insertAll(a, b, c);
      const found = await groups().findByIds([groupId(3), groupId(7), groupId(2)]);
      expect([...found].sort((x, y) => x.id - y.id)).to.deep.equal([b, c]);
      expect(await groups().findByIds([])).to.deep.equal([]);
    });

    describe('update', () => {
      it('writes the group when the stored one has the expected version', async () => {
        const g = aGroup({ id: 1, name: 'Billing' });
        await insertAll(g);
        const next = { ...g, name: 'billing', description: 'Money', version: 2 };
        expect(await groups().update(next, 1)).to.equal('ok');
        expect(await groups().findById(groupId(1))).to.deep.equal(next);
      });

      it('refuses a stale expected version and changes nothing', async () => {
        const g = aGroup({ id: 1, version: 2 });
        await insertAll(g);
        expect(await groups().update({ ...g, name: 'Other', version: 3 }, 1)).to.equal('version_mismatch');
        expect(await groups().findById(groupId(1))).to.deep.equal(g);
      });

      it('answers version_mismatch for a group that does not exist, and does not create it', async () => {
        expect(await groups().update(aGroup({ id: 9, version: 2 }), 1)).to.equal('version_mismatch');
        expect(await groups().findById(groupId(9))).to.equal(null);
      });

      it("refuses another group's name in any case, and changes nothing", async () => {
        const billing = aGroup({ id: 1, name: 'Billing' });
        const network = aGroup({ id: 2, name: 'Network' });
        await insertAll(billing, network);
        expect(await groups().update({ ...network, name: 'bILLING', version: 2 }, 1)).to.equal('name_taken');
        expect(await groups().findById(groupId(2))).to.deep.equal(network);
      });

      it('frees the old name once a group is renamed', async () => {
        const g = aGroup({ id: 1, name: 'Billing' });
        await insertAll(g);
        expect(await groups().update({ ...g, name: 'Invoices', version: 2 }, 1)).to.equal('ok');
        expect(await groups().insert(aGroup({ id: 2, name: 'billing' }))).to.equal('ok');
        expect(await groups().insert(aGroup({ id: 3, name: 'INVOICES' }))).to.equal('name_taken');
      });
    });

    it('deletes a group, frees its name and answers whether there was one', async () => {
      await insertAll(aGroup({ id: 1, name: 'Billing' }), aGroup({ id: 2 }));
      expect(await groups().delete(groupId(1), Date.now())).to.equal(true);
      expect(await groups().findById(groupId(1))).to.equal(null);
      expect(await groups().delete(groupId(1), Date.now())).to.equal(false);
      expect(await groups().list(0, 10)).to.deep.equal({ items: [aGroup({ id: 2 })], total: 1 });
      expect(await groups().insert(aGroup({ id: 3, name: 'BILLING' }))).to.equal('ok');
    });

    it('lists groups by id ascending, page by page, with the total', async () => {
      await insertAll(...[4, 1, 3, 2, 6].map((id) => aGroup({ id })));
      expect(ids(await groups().list(0, 2))).to.deep.equal([1, 2]);
      expect(ids(await groups().list(2, 2))).to.deep.equal([3, 4]);
      expect(await groups().list(4, 2)).to.deep.equal({ items: [aGroup({ id: 6 })], total: 5 });
      expect(await groups().list(6, 2)).to.deep.equal({ items: [], total: 5 });
      expect((await groups().list(0, 2)).total).to.equal(5);
    });

    it('serves pages that start before pageBounds.maxOffset; a deeper one rejects (RangeError)', async () => {
      await insertAll(aGroup({ id: 1 }));
      await expectPagingLimit((offset, limit) => groups().list(offset, limit), 1);
    });
  });
}
