import type { Message } from '@support/domain';
import { expect } from 'chai';
import type { Page } from '../src/index.js';
import { aMessage, messageNumber, minutes, T0, ticketId } from './mothers.js';
import { expectPagingLimit } from './paging-limit.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

const numbers = (page: Page<Message>): number[] => page.items.map((m) => m.number);

/** The MessageRepository port's promises (see its doc comments), for any store. */
export function describeMessageRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: MessageRepository contract`, () => {
    const store = freshStorePerTest(makeStore);
    const messages = () => store().messages;
    const insertAll = async (...ms: Message[]): Promise<void> => {
      for (const m of ms) await messages().insert(m);
    };

    it('find answers null for a message that was never stored', async () => {
      await insertAll(aMessage({ ticketId: 1, number: 1 }));
      expect(await messages().find(ticketId(1), messageNumber(2))).to.equal(null);
      expect(await messages().find(ticketId(2), messageNumber(1))).to.equal(null);
    });

    it('gives back every field as stored, by ticket and number', async () => {
      const note = aMessage({
        ticketId: 1,
        number: 2,
        body: 'Internal: customer is a VIP ☕',
        authorId: 5,
        internal: true,
        createdAt: T0,
        updatedAt: T0 + minutes(2),
        version: 3,
      });
      const sameNumberOtherTicket = aMessage({ ticketId: 2, number: 2, body: 'Another ticket' });
      await insertAll(note, sameNumberOtherTicket);
      expect(await messages().find(ticketId(1), messageNumber(2))).to.deep.equal(note);
      expect(await messages().find(ticketId(2), messageNumber(2))).to.deep.equal(sameNumberOtherTicket);
    });

    it('finds a deleted message, which carries its deletedAt', async () => {
      const gone = aMessage({ number: 1, deletedAt: T0 + minutes(1), version: 2 });
      await insertAll(gone);
      expect(await messages().find(ticketId(1), messageNumber(1))).to.deep.equal(gone);
    });

    describe('update (optimistic concurrency)', () => {
      it('writes the message when the stored one has the expected version', async () => {
        const m = aMessage({ number: 1 });
        await insertAll(m);
        const edited = { ...m, body: 'Edited', updatedAt: T0 + minutes(1), version: 2 };
        expect(await messages().update(edited, 1)).to.equal(true);
        expect(await messages().find(ticketId(1), messageNumber(1))).to.deep.equal(edited);
      });

      it('refuses a stale expected version and changes nothing', async () => {
        const m = aMessage({ number: 1, version: 3 });
        await insertAll(m);
        expect(await messages().update({ ...m, body: 'Edited', internal: true, version: 4 }, 2)).to.equal(false);
        expect(await messages().find(ticketId(1), messageNumber(1))).to.deep.equal(m);
        expect(numbers(await messages().list(ticketId(1), false, 0, 10))).to.deep.equal([1]);
      });

      it('answers false for a message that does not exist, and does not create it', async () => {
        expect(await messages().update(aMessage({ number: 7, version: 2 }), 1)).to.equal(false);
        expect(await messages().find(ticketId(1), messageNumber(7))).to.equal(null);
      });

      it('lets exactly one of many concurrent writers of the same version win', async () => {
        const m = aMessage({ number: 1 });
        await insertAll(m);
        const attempts = Array.from({ length: 10 }, (_, i) => ({ ...m, body: `Writer ${i}`, version: 2 }));
        const results = await Promise.all(attempts.map((a) => messages().update(a, 1)));
        expect(results.filter((r) => r)).to.have.length(1);
        expect(await messages().find(ticketId(1), messageNumber(1))).to.deep.equal(attempts[results.indexOf(true)]);
      });
    });

    describe('list', () => {
      it("lists a ticket's messages oldest (lowest number) first, whatever the insertion order", async () => {
        await insertAll(
          aMessage({ number: 3 }),
          aMessage({ number: 1 }),
          aMessage({ number: 2 }),
          aMessage({ ticketId: 2, number: 4 }),
        );
        const page = await messages().list(ticketId(1), true, 0, 10);
        expect(numbers(page)).to.deep.equal([1, 2, 3]);
        expect(page.total).to.equal(3);
        expect(page.items[0]).to.deep.equal(aMessage({ number: 1 }));
      });

      it('hides internal notes unless they are asked for', async () => {
        await insertAll(aMessage({ number: 1 }), aMessage({ number: 2, internal: true }), aMessage({ number: 3 }));
        expect(await messages().list(ticketId(1), false, 0, 10)).to.deep.equal({
          items: [aMessage({ number: 1 }), aMessage({ number: 3 })],
          total: 2,
        });
        const all = await messages().list(ticketId(1), true, 0, 10);
        expect(numbers(all)).to.deep.equal([1, 2, 3]);
        expect(all.total).to.equal(3);
      });

      it('leaves deleted messages out, internal or not', async () => {
        await insertAll(
          aMessage({ number: 1, deletedAt: T0 }),
          aMessage({ number: 2 }),
          aMessage({ number: 3, internal: true, deletedAt: T0 }),
          aMessage({ number: 4, internal: true }),
        );
        expect(numbers(await messages().list(ticketId(1), true, 0, 10))).to.deep.equal([2, 4]);
        expect(numbers(await messages().list(ticketId(1), false, 0, 10))).to.deep.equal([2]);
        expect((await messages().list(ticketId(1), true, 0, 10)).total).to.equal(2);
      });

      it('pages with offset and limit and tells the total on every page', async () => {
        for (let n = 1; n <= 7; n++) await insertAll(aMessage({ number: n, internal: n % 3 === 0 }));
        expect(await messages().list(ticketId(1), true, 0, 3).then(numbers)).to.deep.equal([1, 2, 3]);
        expect(await messages().list(ticketId(1), true, 3, 3).then(numbers)).to.deep.equal([4, 5, 6]);
        expect(await messages().list(ticketId(1), true, 6, 3)).to.deep.include({ total: 7 });
        expect(await messages().list(ticketId(1), true, 6, 3).then(numbers)).to.deep.equal([7]);
        expect(await messages().list(ticketId(1), true, 9, 3)).to.deep.equal({ items: [], total: 7 });
        expect(await messages().list(ticketId(1), false, 2, 2)).to.deep.include({ total: 5 });
        expect(await messages().list(ticketId(1), false, 2, 2).then(numbers)).to.deep.equal([4, 5]);
      });

      it('serves pages that start before pageBounds.maxOffset; a deeper one rejects (RangeError)', async () => {
        await insertAll(aMessage({ number: 1 }));
        await expectPagingLimit((offset, limit) => messages().list(ticketId(1), true, offset, limit), 1);
      });

      it('answers an empty page for a ticket without messages', async () => {
        expect(await messages().list(ticketId(9), true, 0, 10)).to.deep.equal({ items: [], total: 0 });
      });

      it('follows updates: a note made internal, a message deleted', async () => {
        const first = aMessage({ number: 1 });
        const second = aMessage({ number: 2 });
        await insertAll(first, second);
        expect(await messages().update({ ...first, internal: true, version: 2 }, 1)).to.equal(true);
        expect(numbers(await messages().list(ticketId(1), false, 0, 10))).to.deep.equal([2]);
        expect(numbers(await messages().list(ticketId(1), true, 0, 10))).to.deep.equal([1, 2]);
        expect(await messages().update({ ...second, deletedAt: T0, version: 2 }, 1)).to.equal(true);
        expect(await messages().list(ticketId(1), false, 0, 10)).to.deep.equal({ items: [], total: 0 });
        expect(numbers(await messages().list(ticketId(1), true, 0, 10))).to.deep.equal([1]);
      });
    });
  });
}
