import {
  completeSort,
  customSortField,
  newTicketField,
  sortFields,
  tokenize,
  type CompleteSort,
  type CustomCondition,
  type CustomValues,
  type SortRule,
  type TicketFieldDefinition,
  type TicketFieldId,
} from '@support/domain';
import fc from 'fast-check';
import { T0 } from './mothers.js';

// Custom fields for the search property (contract §10): one field of each type, random values
// for them (unset often), and random conditions and sorts over them, from small pools so that
// ties, unset values and empty results are common.

const define = (id: number, spec: Parameters<typeof newTicketField>[1]): TicketFieldDefinition => {
  const made = newTicketField(id as TicketFieldId, spec, 0, T0);
  if (made._tag === 'Left') throw new Error(JSON.stringify(made.left));
  return made.right;
};
const options = (...values: string[]) => values.map((value) => ({ value, title: value }));

/** One field of every type, ids 1-9. */
export const propertyFields: readonly TicketFieldDefinition[] = [
  define(1, { key: 'tier', title: 'Tier', type: 'dropdown', options: options('b', 'a', 'c') }),
  define(2, { key: 'areas', title: 'Areas', type: 'multiselect', options: options('x', 'y', 'z') }),
  define(3, { key: 'seats', title: 'Seats', type: 'integer' }),
  define(4, { key: 'amount', title: 'Amount', type: 'decimal' }),
  define(5, { key: 'renewal', title: 'Renewal', type: 'date' }),
  define(6, { key: 'vip', title: 'VIP', type: 'checkbox' }),
  define(7, { key: 'reference', title: 'Reference', type: 'text' }),
  define(8, { key: 'notes', title: 'Notes', type: 'textarea' }),
  define(9, { key: 'order_no', title: 'Order', type: 'regexp', pattern: '^ORD-[0-9]$' }),
];

const texts = ['printer fire', 'Café', 'jam', 'zebra Zebra', 'B a', '42'];
const pools: Readonly<Record<number, readonly (string | number | boolean)[]>> = {
  1: ['a', 'b', 'c'],
  3: [-5, 0, 3, 7, 42],
  4: [-2, 0.5, 1.25, 19.99, 100],
  5: ['2025-01-01', '2026-03-01', '2026-12-31'],
  6: [false, true],
  7: texts,
  8: texts,
  9: ['ORD-1', 'ORD-2'],
};

/** A ticket's custom values: each field unset half the time. */
export const customValues: fc.Arbitrary<CustomValues> = fc
  .record({
    1: fc.option(fc.constantFrom(...pools[1]!), { freq: 2 }),
    2: fc.option(fc.subarray(['x', 'y', 'z'], { minLength: 1 }), { freq: 2 }),
    3: fc.option(fc.constantFrom(...pools[3]!), { freq: 2 }),
    4: fc.option(fc.constantFrom(...pools[4]!), { freq: 2 }),
    5: fc.option(fc.constantFrom(...pools[5]!), { freq: 2 }),
    6: fc.option(fc.constantFrom(...pools[6]!), { freq: 2 }),
    7: fc.option(fc.constantFrom(...pools[7]!), { freq: 2 }),
    8: fc.option(fc.constantFrom(...pools[8]!), { freq: 2 }),
    9: fc.option(fc.constantFrom(...pools[9]!), { freq: 2 }),
  })
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)) as CustomValues);

const inCondition = (fieldId: number): fc.Arbitrary<CustomCondition> =>
  fc.record({
    kind: fc.constant('in' as const),
    fieldId: fc.constant(fieldId),
    all: fc.constant(fieldId === 2),
    values: fc.subarray(fieldId === 2 ? ['x', 'y', 'z'] : [...pools[fieldId]!], {
      maxLength: Math.min(3, fieldId === 2 ? 3 : pools[fieldId]!.length),
    }),
    none: fc.boolean(),
  });

const rangeCondition = (fieldId: number): fc.Arbitrary<CustomCondition> => {
  const bound = fc.option(fc.constantFrom(...(pools[fieldId]! as readonly (number | string)[])), { freq: 3 });
  return fc
    .record({ kind: fc.constant('range' as const), fieldId: fc.constant(fieldId), gte: bound, lte: bound })
    .filter((c) => c.gte !== null || c.lte !== null);
};

/** Zero to two conditions on random fields. */
export const customConditionsArb: fc.Arbitrary<CustomCondition[]> = fc.array(
  fc.oneof(...propertyFields.map((f) => inCondition(f.id)), rangeCondition(3), rangeCondition(4), rangeCondition(5)),
  { maxLength: 2 },
);

const sortableIds = propertyFields.filter((f) => f.type !== 'textarea' && f.type !== 'multiselect').map((f) => f.id);

/** A complete sort mixing custom fields and ticket fields. */
export const customSort: fc.Arbitrary<CompleteSort> = fc
  .uniqueArray(
    fc.record({
      field: fc.oneof(fc.constantFrom(...sortableIds.map(customSortField)), fc.constantFrom(...sortFields)),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
    }),
    { selector: (r: SortRule) => r.field, minLength: 1, maxLength: 3 },
  )
  .map(completeSort);

/** Words of the text pools, and one nobody has. */
export const customWordsPool: readonly string[] = [
  ...new Set(texts.flatMap((t) => tokenize(t))),
  'ord',
  '1',
  'xylophone',
];

/** The text fields whose words `q` searches: all of them (staff), some (a customer), or none. */
export const searchFieldsArb: fc.Arbitrary<number[]> = fc.constantFrom([], [7, 8, 9], [7], [8, 9]);
