import { renameCustomer, sortFields, type CompleteSort, type Ticket } from '@support/domain';
import { expect } from 'chai';
import type { Page, Store } from '../src/index.js';
import { carryOut } from './follow-up-carrier.js';
import { helpDesk, helpDeskFilters } from './help-desk.js';
import { aTicket, minutes, T0, ticketId, userId } from './mothers.js';
import { aFilter, expectedSearch, sortName, sortOf, wordsOf } from './reference-search.js';

const ids = (page: Page<Ticket>): number[] => page.items.map((t) => t.id);

const helpDeskSorts: readonly CompleteSort[] = [
  ...sortFields.flatMap((f) => [sortOf(f), sortOf(`-${f}`)]),
  sortOf('state', '-priority'),
  sortOf('-priority', 'createdAt'),
  sortOf('closedAt', '-subject'),
  sortOf('-closedAt', 'state', 'updatedAt'),
  sortOf('priority', '-state', 'subject', '-createdAt'),
  sortOf('-priority', 'id'),
  sortOf('subject', '-id'),
  sortOf('-updatedAt', 'id', 'subject'),
];

/** Search examples of the TicketRepository contract, on a fresh store per test (a rename is a user write's follow-up). */
export const ticketSearchExamples = (store: () => Store): void => {
  const tickets = () => store().tickets;
  describe('search: the tickets matchesTicket selects, in the order of compareTickets', () => {
    const load = async (): Promise<void> => {
      for (const t of helpDesk) await tickets().insert(t);
    };

    for (const sort of helpDeskSorts) {
      it(`sort=${sortName(sort)}: every filter, whole and page by page`, async () => {
        await load();
        for (const [title, filter] of helpDeskFilters) {
          const whole = expectedSearch(helpDesk, filter, sort, 0, 100);
          const what = `filter "${title}", sort=${sortName(sort)}`;
          expect(await tickets().search(filter, sort, 0, 100), what).to.deep.equal(whole);
          for (let offset = 0; offset <= whole.total + 3; offset += 3) {
            const page = await tickets().search(filter, sort, offset, 3);
            expect(ids(page), `${what}, offset ${offset}`).to.deep.equal(
              ids(expectedSearch(helpDesk, filter, sort, offset, 3)),
            );
            expect(page.total, `${what}, offset ${offset}`).to.equal(whole.total);
          }
        }
      });
    }

    it('never lists a deleted ticket, whatever the filter', async () => {
      await load();
      const deleted = new Set<number>(helpDesk.filter((t) => t.deletedAt !== null).map((t) => t.id));
      expect(deleted.size).to.be.greaterThan(0);
      for (const [, filter] of helpDeskFilters) {
        const page = await tickets().search(filter, sortOf('id'), 0, 100);
        expect(ids(page).filter((id) => deleted.has(id))).to.deep.equal([]);
      }
    });

    it('pages through one ticket at a time with a correct total on each page', async () => {
      await load();
      const sort = sortOf('-createdAt');
      const whole = expectedSearch(helpDesk, aFilter(), sort, 0, 100);
      const seen: number[] = [];
      for (let offset = 0; offset < whole.total; offset++) {
        const page = await tickets().search(aFilter(), sort, offset, 1);
        expect(page.total).to.equal(whole.total);
        seen.push(...ids(page));
      }
      expect(seen).to.deep.equal(ids(whole));
      expect(await tickets().search(aFilter(), sort, whole.total, 1)).to.deep.equal({ items: [], total: whole.total });
    });

    it('finds nothing in an empty store', async () => {
      expect(await tickets().search(aFilter(), sortOf('-createdAt'), 0, 30)).to.deep.equal({ items: [], total: 0 });
      expect(await tickets().search(aFilter({ words: wordsOf('printer') }), sortOf('subject'), 0, 30)).to.deep.equal({
        items: [],
        total: 0,
      });
    });
  });

  describe('search sees every write as soon as it has been answered', () => {
    const search = (spec: Parameters<typeof aFilter>[0]) => tickets().search(aFilter(spec), sortOf('id'), 0, 10);

    it('a new ticket, a changed subject, state, priority, customer name, and a deletion', async () => {
      const first = aTicket({ id: 1, subject: 'Printer on fire', customerId: 1, customerName: 'Ada Lovelace' });
      await tickets().insert(first);
      expect(ids(await search({ words: wordsOf('printer') }))).to.deep.equal([1]);

      const renamed = { ...first, subject: 'Monitor flickers', version: 2 };
      expect(await tickets().update(renamed, 1)).to.equal(true);
      expect(await search({ words: wordsOf('printer') })).to.deep.equal({ items: [], total: 0 });
      expect(ids(await search({ words: wordsOf('monitor') }))).to.deep.equal([1]);

      const closed = { ...renamed, state: 'closed' as const, closedAt: T0 + minutes(5), version: 3 };
      expect(await tickets().update(closed, 2)).to.equal(true);
      expect((await search({ states: ['open'] })).total).to.equal(0);
      expect(ids(await search({ states: ['closed'], closedSince: T0 }))).to.deep.equal([1]);

      const second = aTicket({
        id: 2,
        subject: 'Monitor dead',
        priority: 'high',
        customerId: 2,
        customerName: 'Grace Hopper',
      });
      await tickets().insert(second);
      const byPriority = () => tickets().search(aFilter(), sortOf('-priority'), 0, 10);
      expect(ids(await byPriority())).to.deep.equal([2, 1]);
      expect(await tickets().update({ ...closed, priority: 'urgent', version: 4 }, 3)).to.equal(true);
      expect(ids(await byPriority())).to.deep.equal([1, 2]);

      const rename = { op: 'renameCustomer', customerId: userId(1), name: 'Augusta King', version: 2 } as const;
      await carryOut(store(), [{ ...rename, now: T0 + minutes(8) }], T0 + minutes(8));
      expect(ids(await search({ words: wordsOf('augusta') }))).to.deep.equal([1]);
      expect((await search({ words: wordsOf('lovelace') })).total).to.equal(0);

      const current = await tickets().findById(ticketId(1));
      if (current === null) throw new Error('ticket 1 is gone');
      expect(current).to.deep.equal(
        renameCustomer({ ...closed, priority: 'urgent', version: 4 }, 'Augusta King', T0 + minutes(8)),
      );
      expect(
        await tickets().update(
          { ...current, deletedAt: T0 + minutes(9), version: current.version + 1 },
          current.version,
        ),
      ).to.equal(true);
      expect(ids(await search({}))).to.deep.equal([2]);
      expect((await search({ words: wordsOf('augusta') })).total).to.equal(0);
      expect((await tickets().findById(ticketId(1)))?.deletedAt).to.equal(T0 + minutes(9));
    });
  });
};
