import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import {
  customConditions,
  customSortField,
  customSortFieldId,
  customSortKey,
  customSortRefusal,
  customWords,
  isCustomSortField,
  matchesCustom,
  newTicketField,
  parseCustomScalar,
  searchedFieldIds,
  type CustomFilterParam,
  type TicketFieldCreateInput,
  type TicketFieldDefinition,
  type TicketFieldId,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// Queries on custom fields (contract §10): each type's query values, `cf.<key>` lists (OR,
// `none`, ALL for a multiselect), `.gte` / `.lte`, the sort key and the words `q` finds.

const field = (id: number, input: Omit<TicketFieldCreateInput, 'title'>): TicketFieldDefinition =>
  rightOf(newTicketField(id as TicketFieldId, { title: input.key, ...input }, 0, 0));
const options = (...values: string[]) => values.map((value) => ({ value, title: value }));
const tier = field(1, { key: 'tier', type: 'dropdown', options: options('free', 'gold') });
const seats = field(2, { key: 'seats', type: 'integer' });
const areas = field(3, { key: 'areas', type: 'multiselect', options: options('api', 'ui') });
const notes = field(4, { key: 'notes', type: 'textarea' });
const title = field(5, { key: 'title', type: 'text' });
const order = field(6, { key: 'order', type: 'regexp', pattern: '^ORD-[0-9]+$' });
const price = field(7, { key: 'price', type: 'decimal' });
const due = field(8, { key: 'due', type: 'date' });
const urgent = field(9, { key: 'urgent', type: 'checkbox' });
const defs = [tier, seats, areas, notes, title, order, price, due, urgent];

const parse = (def: TicketFieldDefinition, raw: string) => parseCustomScalar(def, raw);
const param = (parameter: string, value: string): CustomFilterParam => {
  const [, key = '', op = 'eq'] = parameter.split('.');
  return { parameter, key, op: op as CustomFilterParam['op'], value };
};
const conditions = (...params: [string, string][]) =>
  customConditions(
    defs,
    params.map(([p, v]) => param(p, v)),
  );

describe('custom field queries (contract §10)', () => {
  describe('one query value of each type', () => {
    it('text and textarea: any text up to 10000 characters', () => {
      for (const def of [title, notes]) {
        expect(parse(def, 'x'.repeat(10000))).to.deep.equal(E.right('x'.repeat(10000)));
        expect(parse(def, 'x'.repeat(10001))).to.deep.equal(E.left('is too long to be a value of this field'));
      }
    });
    it('regexp: a text the pattern matches', () => {
      expect(parse(order, 'ORD-12')).to.deep.equal(E.right('ORD-12'));
      expect(parse(order, 'ORD-')).to.deep.equal(E.left('does not match ^ORD-[0-9]+$'));
      // No pattern (no regexp definition lacks one) restricts nothing.
      expect(parse({ ...order, pattern: null }, 'anything')).to.deep.equal(E.right('anything'));
    });
    it('integer: decimal digits of a safe integer, no sign but -, no leading zero', () => {
      for (const [raw, n] of [
        ['42', 42],
        ['-7', -7],
        ['0', 0],
        ['9007199254740991', 9007199254740991],
      ] as const)
        expect(parse(seats, raw), raw).to.deep.equal(E.right(n));
      expect(Object.is(rightOf(parse(seats, '-0')), 0)).to.equal(true);
      for (const raw of ['007', '1.0', '+1', ' 1', '1 ', '1e3', '0x10', 'a1', '', '9007199254740992'])
        expect(parse(seats, raw), JSON.stringify(raw)).to.deep.equal(E.left('is not an integer'));
    });
    it('decimal: at most 4 decimals, no exponent, no leading zero', () => {
      for (const [raw, n] of [
        ['1.5', 1.5],
        ['-0.0001', -0.0001],
        ['15', 15],
        ['100.25', 100.25],
        ['-12.3456', -12.3456],
        ['99999999999.9999', 99999999999.9999],
      ] as const)
        expect(parse(price, raw), raw).to.deep.equal(E.right(n));
      expect(Object.is(rightOf(parse(price, '-0.0')), 0)).to.equal(true);
      for (const raw of ['1.23456', '01.5', '.5', '1.', '1e3', ' 1.5', '1.5 ', '1,5', 'x', '100000000000', '1.a'])
        expect(parse(price, raw), JSON.stringify(raw)).to.deep.equal(
          E.left('is not a decimal with at most 4 decimals'),
        );
    });
    it('date, checkbox, options', () => {
      expect(parse(due, '2024-02-29')).to.deep.equal(E.right('2024-02-29'));
      expect(parse(due, '2026-02-29')).to.deep.equal(E.left('is not a date YYYY-MM-DD'));
      expect([parse(urgent, 'true'), parse(urgent, 'false')]).to.deep.equal([E.right(true), E.right(false)]);
      for (const raw of ['TRUE', '1', 'yes', ''])
        expect(parse(urgent, raw)).to.deep.equal(E.left('is not true or false'));
      expect(parse(tier, 'gold')).to.deep.equal(E.right('gold'));
      expect(parse(areas, 'ui')).to.deep.equal(E.right('ui'));
      expect(parse(tier, 'Gold')).to.deep.equal(E.left('is not an option of this field (free, gold)'));
    });
  });

  describe('cf.<key>=<values>', () => {
    it('a list is OR, "none" is unset, repeats count once; a multiselect must hold ALL', () => {
      expect(rightOf(conditions(['cf.tier', 'gold,none,gold']))).to.deep.equal([
        { kind: 'in', fieldId: 1, all: false, values: ['gold'], none: true },
      ]);
      expect(rightOf(conditions(['cf.tier', 'free']))).to.deep.equal([
        { kind: 'in', fieldId: 1, all: false, values: ['free'], none: false },
      ]);
      expect(rightOf(conditions(['cf.areas', 'ui,api']))).to.deep.equal([
        { kind: 'in', fieldId: 3, all: true, values: ['ui', 'api'], none: false },
      ]);
      expect(rightOf(conditions())).to.deep.equal([]);
    });
    it('takes at most 100 values', () => {
      const hundred = Array(100).fill('gold').join(',');
      expect(rightOf(conditions(['cf.tier', hundred]))).to.have.length(1);
      expect(leftOf(conditions(['cf.tier', `${hundred},free`]))).to.deep.equal([
        { parameter: 'cf.tier', value: `${hundred},free`, message: 'at most 100 values' },
      ]);
    });
    it('names every unknown key, empty item and malformed value', () => {
      expect(leftOf(conditions(['cf.nope', '1'], ['cf.tier', 'gold,'], ['cf.seats', '1,x,2.5']))).to.deep.equal([
        { parameter: 'cf.nope', value: 'nope', message: 'no ticket field "nope" (GET /v1/ticket_fields lists them)' },
        { parameter: 'cf.tier', value: 'gold,', message: 'holds an empty value' },
        { parameter: 'cf.seats', value: 'x', message: '"x" is not an integer' },
        { parameter: 'cf.seats', value: '2.5', message: '"2.5" is not an integer' },
      ]);
    });
  });

  describe('cf.<key>.gte and .lte', () => {
    it('bound integer, decimal and date fields; bounds of one field make one condition, the tightest', () => {
      expect(
        rightOf(
          conditions(
            ['cf.seats.gte', '2'],
            ['cf.seats.lte', '9'],
            ['cf.seats.gte', '4'],
            ['cf.seats.gte', '3'],
            ['cf.seats.lte', '7'],
            ['cf.seats.lte', '8'],
          ),
        ),
      ).to.deep.equal([{ kind: 'range', fieldId: 2, gte: 4, lte: 7 }]);
      expect(rightOf(conditions(['cf.due.lte', '2026-03-01'], ['cf.price.gte', '1.5']))).to.deep.equal([
        { kind: 'range', fieldId: 8, gte: null, lte: '2026-03-01' },
        { kind: 'range', fieldId: 7, gte: 1.5, lte: null },
      ]);
    });
    it('refuse other types, lists and malformed bounds', () => {
      expect(
        leftOf(conditions(['cf.tier.gte', 'free'], ['cf.seats.lte', '1,2'], ['cf.due.gte', 'soon'])),
      ).to.deep.equal([
        {
          parameter: 'cf.tier.gte',
          value: 'cf.tier.gte',
          message: '.gte and .lte apply to integer, decimal and date fields; tier is a dropdown field',
        },
        { parameter: 'cf.seats.lte', value: '1,2', message: '"1,2" must be one value' },
        { parameter: 'cf.due.gte', value: 'soon', message: '"soon" is not a date YYYY-MM-DD' },
      ]);
      expect(leftOf(conditions(['cf.seats.gte', ''])).map((i) => i.message)).to.deep.equal(['"" is not an integer']);
    });
  });

  describe('what a condition matches', () => {
    const one = (...p: [string, string][]) => rightOf(conditions(...p))[0]!;
    it('OR, none, ALL', () => {
      const gold = one(['cf.tier', 'gold']);
      expect([
        matchesCustom(gold, { 1: 'gold' }),
        matchesCustom(gold, { 1: 'free' }),
        matchesCustom(gold, {}),
      ]).to.deep.equal([true, false, false]);
      const unset = one(['cf.tier', 'none']);
      expect([matchesCustom(unset, {}), matchesCustom(unset, { 1: 'free' })]).to.deep.equal([true, false]);
      const all = one(['cf.areas', 'api,ui']);
      expect([
        matchesCustom(all, { 3: ['ui', 'api'] }),
        matchesCustom(all, { 3: ['ui'] }),
        matchesCustom(all, {}),
      ]).to.deep.equal([true, false, false]);
      expect(matchesCustom(one(['cf.areas', 'ui']), { 3: ['api', 'ui'] })).to.equal(true);
      const noAreas = one(['cf.areas', 'none']);
      expect([matchesCustom(noAreas, {}), matchesCustom(noAreas, { 3: ['ui'] })]).to.deep.equal([true, false]);
      expect(matchesCustom({ kind: 'in', fieldId: 3, all: true, values: ['ui'], none: false }, { 3: 'ui' })).to.equal(
        false,
      );
    });
    it('a range includes its bounds; an open side is unbounded; unset or a list never matches', () => {
      const from = one(['cf.seats.gte', '2']);
      const upTo = one(['cf.seats.lte', '2']);
      expect([1, 2, 3].map((n) => matchesCustom(from, { 2: n }))).to.deep.equal([false, true, true]);
      expect([1, 2, 3].map((n) => matchesCustom(upTo, { 2: n }))).to.deep.equal([true, true, false]);
      expect(matchesCustom(from, {})).to.equal(false);
      expect(matchesCustom({ kind: 'range', fieldId: 3, gte: null, lte: null }, { 3: ['a'] })).to.equal(false);
      const march = one(['cf.due.gte', '2026-03-01']);
      expect(['2026-02-28', '2026-03-01', '2027-01-01'].map((d) => matchesCustom(march, { 8: d }))).to.deep.equal([
        false,
        true,
        true,
      ]);
    });
  });

  describe('sort and words', () => {
    it('sorts by a field id; textarea and multiselect refuse, naming the field', () => {
      expect(customSortField(12)).to.equal('cf:12');
      expect(customSortFieldId('cf:12')).to.equal(12);
      expect([isCustomSortField('cf:3'), isCustomSortField('id'), isCustomSortField('x:cf:')]).to.deep.equal([
        true,
        false,
        false,
      ]);
      expect(customSortRefusal(notes)).to.equal('cannot sort by notes: textarea fields are not sortable');
      expect(customSortRefusal(areas)).to.equal('cannot sort by areas: multiselect fields are not sortable');
      expect(defs.filter((d) => customSortRefusal(d) === null).map((d) => d.key)).to.deep.equal([
        'tier',
        'seats',
        'title',
        'order',
        'price',
        'due',
        'urgent',
      ]);
    });
    it("a ticket's sort key is its value; unset (or a list) is null", () => {
      expect(customSortKey({ 2: 5 }, 2)).to.equal(5);
      expect(customSortKey({ 9: false }, 9)).to.equal(false);
      expect(customSortKey({}, 2)).to.equal(null);
      expect(customSortKey({ 3: ['ui'] }, 3)).to.equal(null);
    });
    it('q finds the words of text, textarea and regexp values only', () => {
      expect(searchedFieldIds(defs)).to.deep.equal([4, 5, 6]);
      const values = { 4: 'Broken Printer', 5: 'Café', 6: 'ORD-12', 2: 7, 1: 'gold' };
      expect(customWords(values, [4, 5, 6, 2])).to.deep.equal(['broken', 'printer', 'cafe', 'ord', '12']);
      expect(customWords(values, [])).to.deep.equal([]);
      expect(customWords({}, [4])).to.deep.equal([]);
    });
  });
});
