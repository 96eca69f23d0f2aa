import { type CustomValue, type Ticket } from '@support/domain';
import { aTicket } from '@support/domain/testing';
import { expect } from 'chai';
import fc from 'fast-check';
import { Journal } from '../src/journal.js';
import { field, opts } from './field-definitions.js';
import type { ReadonlyIdSet } from '../src/tickets/id-set.js';
import { NumericKeys, packedSort, rankedSort } from '../src/tickets/numeric-keys.js';
import { TicketTable } from '../src/tickets/ticket-table.js';

// A start fills every custom field's index in one pass and sorts it once (FieldIndex.bulk,
// with packed keys where they fit: numeric-keys.ts); a running store adds each value in turn.
// Both must give the same index, and the values' columns (value-columns.ts) share option
// values and multiselect lists.

const fields = [
  field(1, 'integer'),
  field(2, 'decimal'),
  field(3, 'date'),
  field(4, 'dropdown', { options: opts('b', 'a', 'c') }),
  field(5, 'multiselect', { options: opts('x', 'y', 'z') }),
  field(6, 'text'),
  field(7, 'checkbox'),
];
const value: Record<number, fc.Arbitrary<CustomValue>> = {
  // Negative, beyond 32 bits and the 32-bit form's own "none" marker: each widens or packs differently.
  1: fc.constantFrom(-5, 0, 3, 3, 2 ** 31, -(2 ** 31), 7),
  2: fc.constantFrom(1.5, -0.25, 2, 1.5),
  3: fc.constantFrom('2026-01-02', '2025-12-31', '2026-01-02'),
  4: fc.constantFrom('a', 'b', 'c'),
  5: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 3 }),
  6: fc.constantFrom('ORD-1', 'ord-2 printer', 'zeta', 'ORD-1'),
  7: fc.boolean(),
};
const values = (ids: readonly number[]): fc.Arbitrary<Record<string, CustomValue>> =>
  fc.tuple(...ids.map((id) => fc.option(value[id] as fc.Arbitrary<CustomValue>, { freq: 3 }))).map((vs) => {
    const out: Record<string, CustomValue> = {};
    vs.forEach((v, i) => {
      if (v !== null) out[String(ids[i])] = v;
    });
    return out;
  });
const ticket = (id: number, ids: readonly number[]): fc.Arbitrary<Ticket> =>
  fc
    .record({ customFields: values(ids), deletedAt: fc.option(fc.constant(1_800_000_000_000), { freq: 5 }) })
    .map((f) => aTicket({ ...f, id }));

const indexOf = (t: TicketTable, id: number) => {
  const index = t.field(id);
  if (index === undefined) throw new Error(`no index of field ${String(id)}`);
  const ids = (s: ReadonlyIdSet | undefined) => {
    if (s === undefined) return [];
    const out: number[] = [];
    s.forEachSlice((xs, a, b) => {
      for (let k = a; k < b; k++) out.push(xs[k] as number);
    });
    return out.sort((a, b) => a - b);
  };
  return {
    sorted: index.sorted?.values() ?? null,
    absent: ids(index.absent),
    byValue: ['a', 'b', 'c', 'x', 'y', 'z', true, false].map((v) => ids(index.byValue?.get(v))),
    words: ['ord', '1', '2', 'printer', 'zeta'].map((w) => index.words?.posting(w)?.values() ?? []),
    keys: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => index.key(i)),
  };
};

describe('FieldIndex: the start-up fill builds the index a running store has', () => {
  it('gives every custom field the same sorted entries, sets, words and keys as putting each ticket', () => {
    const ids = fields.map((f) => f.id as number);
    const writes = fc.array(
      fc.integer({ min: 1, max: 12 }).chain((id) => ticket(id, ids)),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(writes, (tickets) => {
        const running = new TicketTable(new Journal(null), 2);
        for (const f of fields) running.defineField(f, true);
        for (const t of tickets) running.put(t);
        const started = new TicketTable(new Journal(null), 2);
        for (const f of fields) started.defineField(f, false);
        const stored = new Map(tickets.map((t) => [t.id, t]));
        for (const t of [...stored.values()].sort((a, b) => a.id - b.id)) started.restore(t);
        started.restored();
        for (const id of ids) expect(indexOf(started, id), `field ${String(id)}`).to.deep.equal(indexOf(running, id));
        for (const t of stored.values()) expect(started.get(t.id)?.customFields).to.deep.equal(t.customFields);
      }),
    );
  });

  it('keeps one frozen list per multiselect combination, and leaves text values as they are', () => {
    const table = new TicketTable(new Journal(null), 2);
    for (const f of fields) table.defineField(f, false);
    table.restore(aTicket({ id: 1, customFields: { 5: ['y', 'x'], 6: 'ORD-1' } }));
    table.restore(aTicket({ id: 2, customFields: { 5: ['y', 'x'], 6: 'ORD-1' } }));
    table.restore(aTicket({ id: 3, customFields: { 5: ['x', 'y'] } }));
    table.restored();
    const list = (id: number) => table.get(id)?.customFields[5];
    expect(list(1)).to.equal(list(2));
    expect(list(1)).to.deep.equal(['y', 'x']);
    expect(Object.isFrozen(list(1))).to.equal(true);
    expect(list(3)).to.not.equal(list(1));
    expect(table.get(1)?.customFields[6]).to.equal('ORD-1');
  });
});

describe('NumericKeys', () => {
  it('answers what was set, in 32 bits until a key is not a 32-bit integer, then in doubles', () => {
    const keys = new NumericKeys();
    keys.set(3, 7);
    keys.set(5000, -2);
    expect([keys.get(3), keys.get(5000), keys.get(4), keys.get(999_999)]).to.deep.equal([7, -2, null, null]);
    const keyOf = (id: number) => keys.get(id) as number;
    expect(packedSort([5000, 3], keyOf)).to.deep.equal([5000, 3]);
    keys.set(4, -(2 ** 31));
    expect([keys.get(3), keys.get(4), keys.get(5000)]).to.deep.equal([7, -(2 ** 31), -2]);
    expect(packedSort([3, 4], keyOf)).to.deep.equal([4, 3]);
    keys.set(6, 0.5);
    keys.clear(3);
    expect([keys.get(3), keys.get(6)]).to.deep.equal([null, 0.5]);
    expect(packedSort([6], keyOf), 'a key that is not a 32-bit integer').to.equal(null);
  });

  it('orders ids by (key, id) with packed doubles exactly as a comparator does', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constant(2 ** 22 - 1)), { maxLength: 60 }),
        fc.array(fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 }), { minLength: 60, maxLength: 60 }),
        (ids, ks) => {
          const keys = new NumericKeys();
          ids.forEach((id, i) => {
            keys.set(id, ks[i % 3] as number);
          });
          const expected = [...ids].sort((a, b) => (keys.get(a) as number) - (keys.get(b) as number) || a - b);
          expect(packedSort(ids, (id) => keys.get(id) as number)).to.deep.equal(expected);
        },
      ),
      // An id near 2^22 makes a 16 MB array: fewer runs than the default hundred.
      { numRuns: 30 },
    );
  });

  it('orders ascending ids whose keys span few values by counting, exactly as a comparator does', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 60 }).map((ids) => ids.sort((a, b) => a - b)),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 5000 }),
        // Spans either side of the widest one counted (4,096 keys).
        fc.constantFrom(0, 1, 7, 4094, 4095, 4096, 4999),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 60, maxLength: 60 }),
        (ids, base, span, at) => {
          const key = new Map(ids.map((id, i) => [id, base + Math.round((at[i] as number) * span)]));
          const keyOf = (id: number) => key.get(id) as number;
          const expected = [...ids].sort((a, b) => keyOf(a) - keyOf(b) || a - b);
          expect(packedSort(ids, keyOf)).to.deep.equal(expected);
        },
      ),
    );
  });

  it('orders ids by (key, id) through the keys’ ranks exactly as a comparator does, for any numeric keys', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 60 }),
        fc.boolean(),
        fc.array(fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(0, -0, 1.5, 2 ** 40)), {
          minLength: 60,
          maxLength: 60,
        }),
        (ids, ascending, ks) => {
          if (ascending) ids.sort((a, b) => a - b);
          const key = new Map(ids.map((id, i) => [id, ks[i % 7] as number]));
          const keyOf = (id: number) => key.get(id) as number;
          const expected = [...ids].sort((a, b) => {
            const x = keyOf(a);
            const y = keyOf(b);
            return x < y ? -1 : x > y ? 1 : a - b;
          });
          expect(rankedSort(ids, keyOf)).to.deep.equal(expected);
        },
      ),
    );
    expect(rankedSort([1], () => Number.NaN)).to.equal(null);
  });

  it('leaves ids of 2^22 and above to the comparator', () => {
    expect(packedSort([2 ** 22], () => 1)).to.equal(null);
    expect(rankedSort([2 ** 22], () => 0.5)).to.equal(null);
  });
});
