import { expect } from 'chai';
import {
  newTicketField,
  resolveCustomQuery,
  shownCustomValues,
  ticketOrder,
  unknownFieldKey,
  unknownKeys,
  visibleFields,
  writeCustomValues,
  type FieldError,
  type TicketFieldCreateInput,
  type TicketFieldDefinition,
  type TicketFieldId,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// A ticket list's custom field parts resolved against the fields a caller sees (contract §10:
// an unknown key or a malformed value is a 400 naming it), and a ticket's values as a body
// writes them and a caller is shown them.

const field = (id: number, input: Omit<TicketFieldCreateInput, 'title'>): TicketFieldDefinition =>
  rightOf(newTicketField(id as TicketFieldId, { title: input.key, ...input }, 0, 0));
const tier = field(1, {
  key: 'tier',
  type: 'dropdown',
  options: [{ value: 'gold', title: 'Gold' }],
  customerVisible: true,
  customerEditable: true,
});
const seats = field(2, { key: 'seats', type: 'integer', required: true });
const notes = field(3, { key: 'notes', type: 'textarea', customerVisible: true });
const summary = field(4, { key: 'summary', type: 'text' });
const defs = [tier, seats, notes, summary];
const noSuchField = (key: string) => `no ticket field "${key}" (GET /v1/ticket_fields lists them)`;

describe('custom fields in a ticket list and a ticket (contract §10)', () => {
  describe('resolving a list query', () => {
    it('names an unknown key the way GET /v1/ticket_fields lists them', () => {
      expect(unknownFieldKey('plan')).to.equal(noSuchField('plan'));
      expect(unknownKeys(defs, ['tier', 'plan', 'notes', 'x'])).to.deep.equal([
        { parameter: 'fields', value: 'cf.plan', message: noSuchField('plan') },
        { parameter: 'fields', value: 'cf.x', message: noSuchField('x') },
      ]);
      expect(unknownKeys(defs, [])).to.deep.equal([]);
    });
    it('filters by field id, searches the text fields, sorts by field id with the order kept complete', () => {
      const sort = ticketOrder(
        [
          { field: 'cf.seats', direction: 'desc' },
          { field: 'updatedAt', direction: 'asc' },
          { field: 'cf.tier', direction: 'asc' },
        ],
        false,
      );
      const custom = [{ parameter: 'cf.tier', key: 'tier', op: 'eq' as const, value: 'gold' }];
      expect(rightOf(resolveCustomQuery(defs, { custom, customKeys: ['tier'], sort }))).to.deep.equal({
        filter: {
          custom: [{ kind: 'in', fieldId: 1, all: false, values: ['gold'], none: false }],
          searchFields: [3, 4],
        },
        sort: [
          { field: 'cf:2', direction: 'desc' },
          { field: 'updatedAt', direction: 'asc' },
          { field: 'cf:1', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
      });
    });
    it('lists every issue: the filters, then sort, then fields', () => {
      const sort = ticketOrder(
        [
          { field: 'cf.notes', direction: 'desc' },
          { field: 'cf.plan', direction: 'asc' },
          { field: 'cf.notes', direction: 'asc' },
          { field: 'cf.summary', direction: 'desc' },
        ],
        false,
      );
      const custom = [{ parameter: 'cf.seats', key: 'seats', op: 'eq' as const, value: 'many' }];
      expect(leftOf(resolveCustomQuery(defs, { custom, customKeys: ['gone'], sort }))).to.deep.equal([
        { parameter: 'cf.seats', value: 'many', message: '"many" is not an integer' },
        { parameter: 'sort', value: '-cf.notes', message: 'cannot sort by notes: textarea fields are not sortable' },
        { parameter: 'sort', value: 'cf.plan', message: noSuchField('plan') },
        { parameter: 'sort', value: 'cf.notes', message: 'cannot sort by notes: textarea fields are not sortable' },
        { parameter: 'fields', value: 'cf.gone', message: noSuchField('gone') },
      ]);
    });
    it('a bad filter alone is refused', () => {
      const custom = [{ parameter: 'cf.plan', key: 'plan', op: 'eq' as const, value: 'x' }];
      expect(leftOf(resolveCustomQuery(defs, { custom, customKeys: [], sort: ticketOrder([], false) }))).to.deep.equal([
        { parameter: 'cf.plan', value: 'plan', message: noSuchField('plan') },
      ]);
    });
  });

  describe("a ticket's values", () => {
    const err = (key: string, code: FieldError['code'], message: string): FieldError => ({
      field: `customFields.${key}`,
      code,
      message,
    });
    it('refusals name the field and say why', () => {
      expect(leftOf(writeCustomValues(defs, {}, { plan: 'x', seats: null }, 'create', 'staff'))).to.deep.equal([
        err('plan', 'unknown_field', 'is not a ticket field (GET /v1/ticket_fields)'),
        err('seats', 'required', 'is required (a required ticket field)'),
      ]);
      expect(leftOf(writeCustomValues(defs, { 3: 'old' }, { notes: 'new' }, 'patch', 'customer'))).to.deep.equal([
        err('notes', 'not_permitted', 'customers may not write this field'),
      ]);
    });
    it('required binds staff creating and replacing, not patching, not customers', () => {
      expect(leftOf(writeCustomValues(defs, {}, undefined, 'create', 'staff'))).to.deep.equal([
        err('seats', 'required', 'is required (a required ticket field)'),
      ]);
      expect(leftOf(writeCustomValues(defs, { 2: 4 }, {}, 'replace', 'staff')).map((e) => e.field)).to.deep.equal([
        'customFields.seats',
      ]);
      expect(rightOf(writeCustomValues(defs, { 1: 'gold' }, {}, 'patch', 'staff'))).to.deep.equal({ 1: 'gold' });
      expect(rightOf(writeCustomValues(defs, {}, { tier: 'gold' }, 'create', 'customer'))).to.deep.equal({ 1: 'gold' });
    });
    it('a body without custom_fields changes nothing on PATCH and unsets the writable fields on PUT', () => {
      const current = { 1: 'gold', 2: 4, 3: 'text' };
      expect(rightOf(writeCustomValues(defs, current, undefined, 'patch', 'staff'))).to.deep.equal(current);
      expect(rightOf(writeCustomValues(defs, current, undefined, 'replace', 'customer'))).to.deep.equal({
        2: 4,
        3: 'text',
      });
    });
    it('each caller sees one member per field they may see, null when unset', () => {
      expect(visibleFields(defs, 'customer')).to.deep.equal([tier, notes]);
      expect(visibleFields(defs, 'staff')).to.equal(defs);
      const values = { 1: 'gold', 2: 0, 4: 'x' };
      expect(shownCustomValues(defs, values)).to.deep.equal({ tier: 'gold', seats: 0, notes: null, summary: 'x' });
      expect(shownCustomValues(visibleFields(defs, 'customer'), values)).to.deep.equal({ tier: 'gold', notes: null });
      expect(shownCustomValues(defs, values, ['seats', 'notes'])).to.deep.equal({ seats: 0, notes: null });
      expect(shownCustomValues(defs, values, [])).to.deep.equal({});
    });
  });
});
