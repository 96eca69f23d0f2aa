import { expect } from 'chai';
import { aTicket, minutes, T0, ticketId } from './mothers.js';
import { aFilter, sortOf, wordsOf } from './reference-search.js';
import { expectPagingLimit } from './paging-limit.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';
import { tamper } from './tamper.js';
import { ticketSearchExamples } from './ticket-search-examples.js';
import { ticketSearchCustomProperties } from './ticket-search-custom-property.js';
import { ticketSearchProperties } from './ticket-search-property.js';

/** The TicketRepository port's promises (see its doc comments), for any store. */
export function describeTicketRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: TicketRepository contract`, () => {
    const store = freshStorePerTest(makeStore);
    const tickets = () => store().tickets;

    describe('insert and findById', () => {
      it('answers null for a ticket that was never stored', async () => {
        expect(await tickets().findById(ticketId(404))).to.equal(null);
      });

      it('gives back every field as stored: texts, links, tags, times, nulls', async () => {
        const full = aTicket({
          id: 7,
          subject: 'Café crème machine 😀',
          summary: 'Line one\nline two',
          state: 'closed',
          priority: 'urgent',
          customerId: 3,
          customerName: 'Émile Zola',
          assignedUserId: 4,
          groupId: 5,
          tags: ['billing', 'vip'],
          createdAt: T0,
          updatedAt: T0 + minutes(5),
          closedAt: T0 + minutes(4),
          version: 3,
        });
        const bare = aTicket({ id: 8, summary: '', assignedUserId: null, groupId: null, tags: [], closedAt: null });
        await tickets().insert(full);
        await tickets().insert(bare);
        expect(await tickets().findById(ticketId(7))).to.deep.equal(full);
        expect(await tickets().findById(ticketId(8))).to.deep.equal(bare);
      });

      it('returns a deleted ticket (a tombstone) with its deletedAt', async () => {
        const gone = aTicket({ id: 1, deletedAt: T0 + minutes(9), version: 2 });
        await tickets().insert(gone);
        expect(await tickets().findById(ticketId(1))).to.deep.equal(gone);
      });

      it('keeps its own copy: changing the inserted or a returned object changes nothing stored', async () => {
        const original = aTicket({ id: 1, tags: ['a'] });
        const given = { ...original, tags: ['a'] };
        await tickets().insert(given);
        given.tags.push('changed by the caller');
        const found = await tickets().findById(ticketId(1));
        tamper(() => (found?.tags as string[] | undefined)?.push('changed by a reader'));
        const page = await tickets().search(aFilter(), sortOf('id'), 0, 10);
        tamper(() => (page.items[0]?.tags as string[] | undefined)?.push('changed by a searcher'));
        expect(await tickets().findById(ticketId(1))).to.deep.equal(original);
      });
    });

    describe('update (optimistic concurrency)', () => {
      it('writes the ticket when the stored one has the expected version', async () => {
        const t = aTicket({ id: 1, version: 4 });
        await tickets().insert(t);
        const next = { ...t, subject: 'Printer fixed', updatedAt: T0 + minutes(1), version: 5 };
        expect(await tickets().update(next, 4)).to.equal(true);
        expect(await tickets().findById(ticketId(1))).to.deep.equal(next);
      });

      it('refuses a stale expected version and changes nothing', async () => {
        const t = aTicket({ id: 1, subject: 'Printer on fire', version: 2 });
        await tickets().insert(t);
        expect(
          await tickets().update({ ...t, subject: 'Monitor flickers', state: 'closed', closedAt: T0, version: 2 }, 1),
        ).to.equal(false);
        expect(await tickets().findById(ticketId(1))).to.deep.equal(t);
        const search = await tickets().search(aFilter({ words: wordsOf('monitor') }), sortOf('id'), 0, 10);
        expect(search.total).to.equal(0);
      });

      it('answers false for a ticket that does not exist, and does not create it', async () => {
        expect(await tickets().update(aTicket({ id: 9, version: 2 }), 1)).to.equal(false);
        expect(await tickets().findById(ticketId(9))).to.equal(null);
      });

      it('lets exactly one of many concurrent writers of the same version win', async () => {
        const t = aTicket({ id: 1, version: 1 });
        await tickets().insert(t);
        const attempts = Array.from({ length: 10 }, (_, i) => ({ ...t, subject: `Writer ${i}`, version: 2 }));
        const results = await Promise.all(attempts.map((a) => tickets().update(a, 1)));
        expect(results.filter((r) => r)).to.have.length(1);
        const winner = attempts[results.indexOf(true)];
        expect(await tickets().findById(ticketId(1))).to.deep.equal(winner);
      });
    });

    it('search serves pages that start before pageBounds.maxOffset, for any filter and sort; a deeper one rejects (RangeError)', async () => {
      await tickets().insert(aTicket({ id: 1 }));
      await expectPagingLimit((offset, limit) => tickets().search(aFilter(), sortOf('-createdAt'), offset, limit), 1);
      await expectPagingLimit(
        (offset, limit) =>
          tickets().search(aFilter({ words: wordsOf('printer') }), sortOf('state', '-priority'), offset, limit),
        1,
      );
    });

    ticketSearchExamples(store);
    ticketSearchProperties(store);
    ticketSearchCustomProperties(store);
  });
}
