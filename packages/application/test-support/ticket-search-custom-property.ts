import type { Ticket } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import type { Store } from '../src/index.js';
import {
  customConditionsArb,
  customSort,
  customValues,
  customWordsPool,
  propertyFields,
  searchFieldsArb,
} from './custom-field-arbitraries.js';
import { T0 } from './mothers.js';
import { aFilter, expectedSearch } from './reference-search.js';
import { contentToTicket, ticketContent } from './ticket-arbitraries.js';

/**
 * The custom field side of the search property (contract §10): with one field of every type
 * defined, random tickets with random values (and rewrites of them), searched with random
 * conditions on them (OR, none, ALL, ranges), custom sorts (unset last both ways) and words
 * of text values: every store answers exactly what the domain's reference answers.
 */
export const ticketSearchCustomProperties = (store: () => Store): void => {
  describe('search property: custom fields', () => {
    it('equals the reference filter + sort + slice for random values, conditions, sorts and words', async () => {
      for (const f of propertyFields) expect(await store().ticketFields.insert(f, 100)).to.equal('ok');
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(ticketContent, customValues), { maxLength: 20 }),
          fc.array(fc.tuple(fc.nat(), customValues), { maxLength: 4 }),
          fc.array(
            fc.record({
              custom: customConditionsArb,
              sort: customSort,
              words: fc.subarray([...customWordsPool], { maxLength: 2 }),
              searchFields: searchFieldsArb,
              offset: fc.oneof(fc.constant(0), fc.nat(20)),
              limit: fc.integer({ min: 1, max: 25 }),
            }),
            { minLength: 1, maxLength: 4 },
          ),
          async (contents, rewrites, queries) => {
            runs += 1;
            const base = 10_000 + runs * 100;
            const model = new Map<number, Ticket>();
            for (const [i, [c, values]] of contents.entries()) {
              const t = { ...contentToTicket(c, base + i, base), customFields: values };
              await store().tickets.insert(t);
              model.set(t.id, t);
            }
            for (const [target, values] of rewrites) {
              const all = [...model.values()];
              const old = all[target % Math.max(1, all.length)];
              if (old === undefined) continue;
              const next = { ...old, customFields: values, version: old.version + 1 };
              expect(await store().tickets.update(next, old.version)).to.equal(true);
              model.set(next.id, next);
            }
            try {
              for (const q of queries) {
                // Only this run's tickets: its customer ids.
                const filter = aFilter({
                  customerIds: [0, 1, 2].map((n) => (base + n) as Ticket['customerId']),
                  custom: q.custom,
                  words: q.words,
                  searchFields: q.searchFields,
                });
                const expected = expectedSearch([...model.values()], filter, q.sort, q.offset, q.limit);
                const found = await store().tickets.search(filter, q.sort, q.offset, q.limit);
                expect(found, JSON.stringify(q)).to.deep.equal(expected);
              }
            } finally {
              for (const t of model.values())
                if (t.deletedAt === null)
                  await store().tickets.update({ ...t, deletedAt: T0, version: t.version + 1 }, t.version);
            }
          },
        ),
        { numRuns: 50 },
      );
    });
  });
};
