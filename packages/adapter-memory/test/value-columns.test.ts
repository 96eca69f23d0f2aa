import { type CustomValue, type FieldType } from '@support/domain';
import { aTicket } from '@support/domain/testing';
import { expect } from 'chai';
import fc from 'fast-check';
import { Journal } from '../src/journal.js';
import { field, opts } from './field-definitions.js';
import { TicketTable } from '../src/tickets/ticket-table.js';
import { CustomColumns } from '../src/tickets/custom-columns.js';
import { columnFor, type ValueColumn } from '../src/tickets/value-columns.js';

// The tickets' custom values live in a column per field (value-columns.ts), not in the rows:
// whatever a ticket was given is what it has, whichever column holds it.

/** Any custom value, of any type (a column must take its own and refuse the others). */
const anyValue: fc.Arbitrary<CustomValue> = fc.oneof(
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constantFrom('gold', 'free', '2026-03-01', 'ORD-1 printer', ''),
  fc.array(fc.constantFrom('x', 'y', 'z', 'a,b', '\u0000'), { maxLength: 3 }),
);

const types: (FieldType | null)[] = ['integer', 'decimal', 'dropdown', 'checkbox', 'date', 'multiselect', 'text', null];

describe('value columns', () => {
  it('every column answers what it took, refuses (changing nothing) what it cannot hold, and clears', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9000 }), fc.option(anyValue, { freq: 4 })), { maxLength: 40 }),
        (type, writes) => {
          const column: ValueColumn = columnFor(type);
          const model = new Map<number, CustomValue>();
          for (const [id, v] of writes) {
            const took = column.set(id, v ?? undefined, 100_000);
            if (v === null) model.delete(id);
            else if (took) model.set(id, v);
            if (type === null) expect(took, 'an AnyColumn takes everything').to.equal(true);
          }
          for (const [id] of writes) expect(column.get(id), `id ${String(id)}`).to.deep.equal(model.get(id));
          const seen = new Map<number, CustomValue>();
          column.forEach((id, v) => seen.set(id, v));
          expect(seen).to.deep.equal(model);
        },
      ),
    );
  });

  it('takes the values of its type: numbers, options, dates, booleans, lists, strings', () => {
    const cases: [FieldType, CustomValue[], CustomValue[]][] = [
      ['integer', [3, -(2 ** 31), 2 ** 53 - 1, -0], ['3', true]],
      ['decimal', [0.25, -99999.5], ['x']],
      ['dropdown', ['gold', 'free'], [1, ['gold']]],
      ['checkbox', [true, false], ['true', 0]],
      ['date', ['2026-03-01'], [20260301]],
      ['multiselect', [['y', 'x'], ['x']], ['x', 1]],
      ['text', ['ORD-1', 'a b'], [1, ['a']]],
    ];
    for (const [type, good, bad] of cases) {
      const column = columnFor(type);
      good.forEach((v, i) => {
        expect(column.set(i + 1, v, 100), `${type} takes ${JSON.stringify(v)}`).to.equal(true);
        expect(column.get(i + 1), type).to.deep.equal(v);
      });
      for (const v of bad) expect(column.set(50, v, 100), `${type} refuses ${JSON.stringify(v)}`).to.equal(false);
      expect(column.set(100, good[0], 100), `${type}: an id at the reach`).to.equal(false);
    }
  });

  it('moves a field to an AnyColumn when its column refuses a value, keeping every value it held', () => {
    const replaced: string[] = [];
    const columns = new CustomColumns((fieldId) => replaced.push(fieldId));
    columns.column('1', 'integer');
    columns.write(1, { 1: 5, 2: 'no definition' }, 1000, true);
    columns.write(2, { 1: 'five' }, 1000, true);
    columns.write(5000, { 1: 7 }, 1000, true);
    expect(replaced).to.deep.equal(['1']);
    expect([1, 2, 5000].map((id) => columns.valuesOf(id))).to.deep.equal([
      { 1: 5, 2: 'no definition' },
      { 1: 'five' },
      { 1: 7 },
    ]);
    columns.write(1, { 2: 'kept' }, 1000, false);
    expect(columns.valuesOf(1), 'a write clears the fields it does not give').to.deep.equal({ 2: 'kept' });
  });

  it("hands a caller a copy of any ticket's values: the same fields in the same order, its own object and lists", () => {
    // Field ids that are array indexes (kept as elements), and ones that are not (named properties).
    const fieldIds = ['1', '2', '3', '7', '19', '20', '105', '4294967295', '007'];
    fc.assert(
      fc.property(
        fc.subarray(fieldIds, { minLength: 1 }),
        fc.array(fc.dictionary(fc.constantFrom(...fieldIds), anyValue, { maxKeys: fieldIds.length }), {
          minLength: 1,
          maxLength: 6,
        }),
        (defined, tickets) => {
          const columns = new CustomColumns(() => undefined);
          for (const fieldId of defined) columns.column(fieldId, null);
          tickets.forEach((values, i) => {
            columns.write(i + 1, values, 1000, false);
          });
          tickets.forEach((values, i) => {
            const copy = columns.callerValues(i + 1);
            expect(copy).to.deep.equal(values);
            expect(Object.keys(copy), 'the fields, in the order a plain object has them').to.deep.equal(
              Object.keys(columns.valuesOf(i + 1)),
            );
            for (const [fieldId, v] of Object.entries(copy))
              if (Array.isArray(v)) expect(v).not.to.equal(values[fieldId]);
            // The caller owns it: changing it changes no later copy.
            for (const fieldId of fieldIds) copy[fieldId] = 'changed by the caller';
            expect(columns.callerValues(i + 1)).to.deep.equal(values);
          });
        },
      ),
    );
  });

  it('hands callers their own lists, and shares one frozen list per combination inside', () => {
    const columns = new CustomColumns(() => undefined);
    columns.column('5', 'multiselect');
    columns.write(1, { 5: ['y', 'x'] }, 100, true);
    columns.write(2, { 5: ['y', 'x'] }, 100, true);
    const [a, b] = [columns.valuesOf(1)[5], columns.valuesOf(2)[5]];
    expect(a).to.equal(b);
    expect(Object.isFrozen(a)).to.equal(true);
    const mine = columns.callerValues(1)[5];
    expect(mine).to.deep.equal(['y', 'x']);
    expect(mine === a, 'the same list as the column holds').to.equal(false);
  });
});

describe('TicketTable: values without a definition, and of a deleted field', () => {
  it('keeps them as given, and an index answers from the column that replaced a refusing one', () => {
    const table = new TicketTable(new Journal(null), 2);
    table.defineField(field(4, 'dropdown', { options: opts('a', 'b') }), true);
    table.defineField(field(1, 'integer'), true);
    table.put(aTicket({ id: 1, customFields: { 1: 3, 4: 'b', 9: 'no definition' } }));
    // An id far beyond the stored ones: the integer column would be mostly empty (an AnyColumn takes it).
    table.put(aTicket({ id: 1_000_000, customFields: { 1: 1, 4: 'a' } }));
    table.put(aTicket({ id: 2, customFields: { 1: 2 } }));
    expect(table.field(1)?.column.kind).to.equal('any');
    expect(table.get(1)?.customFields).to.deep.equal({ 1: 3, 4: 'b', 9: 'no definition' });
    expect(table.get(1_000_000)?.customFields).to.deep.equal({ 1: 1, 4: 'a' });
    expect(table.field(1)?.sorted?.values()).to.deep.equal([1_000_000, 2, 1]);
    expect(table.field(4)?.sorted?.values()).to.deep.equal([1_000_000, 1]);
    table.dropField(4);
    expect(table.get(1)?.customFields[4], 'a deleted field: kept until the next write').to.equal('b');
    table.put(aTicket({ id: 1, version: 2, customFields: { 1: 3 } }));
    expect(table.get(1)?.customFields).to.deep.equal({ 1: 3 });
  });
});
