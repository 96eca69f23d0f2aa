import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import {
  customConditions,
  matchesCustom,
  newTicketField,
  patchTicketField,
  removedOptions,
  resolveCustomQuery,
  ticketOrder,
  writeCustomValues,
  type TicketFieldDefinition,
  type TicketFieldId,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// Contract §10's rules in the domain: a definition's coherence and change rules, a ticket
// body's custom_fields (merge rules, one error per key, required, customers), and queries.

const field = (
  id: number,
  spec: Partial<TicketFieldDefinition> & Pick<TicketFieldDefinition, 'key' | 'type'>,
): TicketFieldDefinition =>
  rightOf(newTicketField(id as TicketFieldId, { title: spec.key, options: [], ...spec }, 0, 1_000));

const tier = field(1, {
  key: 'tier',
  type: 'dropdown',
  options: [
    { value: 'free', title: 'Free' },
    { value: 'gold', title: 'Gold' },
  ],
  customerVisible: true,
  customerEditable: true,
});
const seats = field(2, { key: 'seats', type: 'integer', required: true });
const areas = field(3, {
  key: 'areas',
  type: 'multiselect',
  options: [
    { value: 'api', title: 'api' },
    { value: 'ui', title: 'ui' },
  ],
});
const notes = field(4, { key: 'notes', type: 'text', customerVisible: true });
const defs = [tier, seats, areas, notes];

describe('custom field rules (contract §10)', () => {
  describe('definitions', () => {
    it('tie options to option types, a pattern to regexp, editability to visibility', () => {
      const errors = (spec: Parameters<typeof newTicketField>[1]): string[] =>
        leftOf(newTicketField(9 as TicketFieldId, spec, 0, 0)).map((e) => e.field);
      expect(errors({ key: 'a', title: 'a', type: 'dropdown' })).to.deep.equal(['options']);
      expect(errors({ key: 'a', title: 'a', type: 'text', options: [{ value: 'x', title: 'x' }] })).to.deep.equal([
        'options',
      ]);
      expect(errors({ key: 'a', title: 'a', type: 'text', pattern: 'x' })).to.deep.equal(['pattern']);
      expect(errors({ key: 'a', title: 'a', type: 'regexp', pattern: '(?<!a)b' })).to.deep.equal(['pattern']);
      expect(errors({ key: 'a', title: 'a', type: 'text', customerEditable: true })).to.deep.equal([
        'customerEditable',
      ]);
    });
    it('keep key, type and pattern; a change that removes options names them', () => {
      expect(leftOf(patchTicketField(tier, { type: 'text' }, 2_000)).map((e) => e.code)).to.deep.equal(['read_only']);
      expect(leftOf(patchTicketField(tier, { key: 'plan' }, 2_000)).map((e) => e.field)).to.deep.equal(['key']);
      const same = rightOf(patchTicketField(tier, { type: 'dropdown', key: 'tier' }, 2_000));
      expect(same).to.equal(tier);
      const fewer = rightOf(patchTicketField(tier, { options: [{ value: 'gold', title: 'Gold' }] }, 2_000));
      expect(fewer.version).to.equal(2);
      expect(removedOptions(tier, fewer)).to.deep.equal(['free']);
    });
  });

  describe('a ticket body', () => {
    it('POST and PUT take the whole object, PATCH merges; required binds staff creating or replacing', () => {
      expect(rightOf(writeCustomValues(defs, {}, { tier: 'gold', seats: 3 }, 'create', 'staff'))).to.deep.equal({
        1: 'gold',
        2: 3,
      });
      expect(
        leftOf(writeCustomValues(defs, {}, { tier: 'gold' }, 'create', 'staff')).map((e) => e.field),
      ).to.deep.equal(['customFields.seats']);
      const current = { 1: 'gold', 2: 3, 4: 'hello' };
      expect(rightOf(writeCustomValues(defs, current, { seats: 5 }, 'replace', 'staff'))).to.deep.equal({ 2: 5 });
      expect(rightOf(writeCustomValues(defs, current, { seats: null, tier: 'free' }, 'patch', 'staff'))).to.deep.equal({
        1: 'free',
        4: 'hello',
      });
      expect(rightOf(writeCustomValues(defs, current, null, 'patch', 'staff'))).to.deep.equal({});
    });
    it('names every bad key once: unknown, wrong type, outside options', () => {
      const errors = leftOf(
        writeCustomValues(defs, {}, { nope: 1, seats: 'x', tier: 'platinum', areas: ['api', 'db'] }, 'patch', 'staff'),
      );
      expect(errors.map((e) => [e.field, e.code])).to.deep.equal([
        ['customFields.nope', 'unknown_field'],
        ['customFields.seats', 'invalid_type'],
        ['customFields.tier', 'invalid_value'],
        ['customFields.areas', 'invalid_value'],
      ]);
    });
    it('a customer knows only visible fields, writes only editable ones, and keeps the others on PUT', () => {
      const current = { 1: 'gold', 2: 3, 4: 'hello' };
      expect(
        leftOf(writeCustomValues(defs, current, { seats: 1 }, 'patch', 'customer')).map((e) => e.code),
      ).to.deep.equal(['unknown_field']);
      expect(
        leftOf(writeCustomValues(defs, current, { notes: 'x' }, 'patch', 'customer')).map((e) => e.code),
      ).to.deep.equal(['not_permitted']);
      // The value she sees, sent back unchanged, is no write.
      expect(rightOf(writeCustomValues(defs, current, { notes: 'hello' }, 'patch', 'customer'))).to.deep.equal(current);
      expect(rightOf(writeCustomValues(defs, current, {}, 'replace', 'customer'))).to.deep.equal({ 2: 3, 4: 'hello' });
    });
    it('drops the values of fields no longer defined', () => {
      expect(rightOf(writeCustomValues(defs, { 99: 'stale', 2: 1 }, {}, 'patch', 'staff'))).to.deep.equal({ 2: 1 });
    });
  });

  describe('queries', () => {
    const conditions = (params: Record<string, string>) =>
      customConditions(
        defs,
        Object.entries(params).map(([parameter, value]) => {
          const [, key = '', op = 'eq'] = parameter.split('.');
          return { parameter, key, op: op as 'eq' | 'gte' | 'lte', value };
        }),
      );
    it('OR within a list, none for unset, ALL for a multiselect, ranges for numbers', () => {
      const [or] = rightOf(conditions({ 'cf.tier': 'gold,none' }));
      expect(matchesCustom(or!, { 1: 'gold' })).to.equal(true);
      expect(matchesCustom(or!, {})).to.equal(true);
      expect(matchesCustom(or!, { 1: 'free' })).to.equal(false);
      const [all] = rightOf(conditions({ 'cf.areas': 'api,ui' }));
      expect(matchesCustom(all!, { 3: ['ui', 'api'] })).to.equal(true);
      expect(matchesCustom(all!, { 3: ['api'] })).to.equal(false);
      const [range] = rightOf(conditions({ 'cf.seats.gte': '2', 'cf.seats.lte': '4' }));
      expect([1, 2, 4, 5].map((n) => matchesCustom(range!, { 2: n }))).to.deep.equal([false, true, true, false]);
      expect(matchesCustom(range!, {})).to.equal(false);
    });
    it('refuses unknown keys, malformed values and ranges on types without them', () => {
      expect(leftOf(conditions({ 'cf.nope': '1' })).map((i) => i.parameter)).to.deep.equal(['cf.nope']);
      expect(leftOf(conditions({ 'cf.seats': '1.5' })).map((i) => i.value)).to.deep.equal(['1.5']);
      expect(leftOf(conditions({ 'cf.tier.gte': 'free' }))).to.have.length(1);
    });
    it('resolves sort keys to field ids; textarea and multiselect do not sort', () => {
      const sort = ticketOrder([{ field: 'cf.seats', direction: 'desc' }], false);
      const r = rightOf(resolveCustomQuery(defs, { custom: [], customKeys: [], sort }));
      expect(r.sort).to.deep.equal([
        { field: 'cf:2', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ]);
      const bad = resolveCustomQuery(defs, {
        custom: [],
        customKeys: ['nope'],
        sort: ticketOrder([{ field: 'cf.areas', direction: 'asc' }], false),
      });
      expect(E.isLeft(bad) ? bad.left.map((i) => i.parameter) : []).to.deep.equal(['sort', 'fields']);
    });
  });
});
