import { expect } from 'chai';
import {
  byPosition,
  newTicketField,
  patchTicketField,
  removedOptions,
  type FieldError,
  type TicketFieldCreateInput,
  type TicketFieldDefinition,
  type TicketFieldId,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// A custom field's definition (contract §10): what a new one holds by default, the rules tying
// its members together (with the exact field errors), and what a change may and may not touch.

const id = 7 as TicketFieldId;
const T = 1_700_000_000_000;
const create = (input: TicketFieldCreateInput, next = 3) => newTicketField(id, input, next, T);
const errorsOf = (input: TicketFieldCreateInput): FieldError[] => leftOf(create(input));
const err = (field: string, code: FieldError['code'], message: string): FieldError => ({ field, code, message });

const plan = rightOf(
  create({
    key: 'plan',
    title: 'Plan',
    type: 'dropdown',
    description: 'The customer plan',
    options: [
      { value: 'free', title: 'Free' },
      { value: 'gold', title: 'Gold' },
    ],
    customerVisible: true,
  }),
);
const order = rightOf(create({ key: 'order', title: 'Order', type: 'regexp', pattern: '^ORD-[0-9]+$' }));

describe('custom field definitions (contract §10)', () => {
  describe('a new one', () => {
    it('defaults: no description, options or pattern, not required, hidden from customers, after the last', () => {
      expect(rightOf(create({ key: 'seats', title: 'Seats', type: 'integer' }, 12))).to.deep.equal({
        id,
        key: 'seats',
        title: 'Seats',
        type: 'integer',
        description: '',
        options: [],
        pattern: null,
        required: false,
        customerVisible: false,
        customerEditable: false,
        position: 12,
        createdAt: T,
        updatedAt: T,
        version: 1,
      });
    });
    it('keeps what it is given', () => {
      const d = rightOf(
        create({
          key: 'notes',
          title: 'Notes',
          type: 'text',
          description: 'Free text',
          required: true,
          customerVisible: true,
          customerEditable: true,
          position: 0,
        }),
      );
      expect(d).to.deep.include({
        description: 'Free text',
        required: true,
        customerVisible: true,
        customerEditable: true,
      });
      expect(d.position).to.equal(0);
      expect(rightOf(create({ key: 'a', title: 'A', type: 'text', position: 5 }, 9)).position).to.equal(5);
      expect(order.pattern).to.equal('^ORD-[0-9]+$');
    });
    it('is placed at most at position 1000000', () => {
      expect(rightOf(create({ key: 'a', title: 'A', type: 'text' }, 2_000_000)).position).to.equal(1_000_000);
      expect(rightOf(create({ key: 'a', title: 'A', type: 'text' }, 999_999)).position).to.equal(999_999);
    });
  });

  describe('coherence, with the field errors it answers', () => {
    it('dropdown and multiselect need options; other types take none', () => {
      expect(errorsOf({ key: 'a', title: 'A', type: 'dropdown' })).to.deep.equal([
        err('options', 'required', 'a dropdown field needs at least one option'),
      ]);
      expect(errorsOf({ key: 'a', title: 'A', type: 'multiselect', options: [] })).to.deep.equal([
        err('options', 'required', 'a multiselect field needs at least one option'),
      ]);
      expect(errorsOf({ key: 'a', title: 'A', type: 'integer', options: [{ value: 'x', title: 'X' }] })).to.deep.equal([
        err('options', 'invalid_value', 'only dropdown and multiselect fields take options'),
      ]);
    });
    it('regexp needs a pattern RE2 accepts; other types take none', () => {
      expect(errorsOf({ key: 'a', title: 'A', type: 'regexp' })).to.deep.equal([
        err('pattern', 'required', 'a regexp field needs a pattern (RE2 syntax)'),
      ]);
      expect(errorsOf({ key: 'a', title: 'A', type: 'regexp', pattern: '(a' })).to.deep.equal([
        err('pattern', 'invalid_value', 'is not an RE2 pattern: missing closing ): `(a`'),
      ]);
      expect(errorsOf({ key: 'a', title: 'A', type: 'text', pattern: '^a$' })).to.deep.equal([
        err('pattern', 'invalid_value', 'only regexp fields take a pattern'),
      ]);
      expect(errorsOf({ key: 'a', title: 'A', type: 'date', pattern: '(a' })).to.deep.equal([
        err('pattern', 'invalid_value', 'only regexp fields take a pattern'),
      ]);
    });
    it('customers may edit only a field they see', () => {
      expect(errorsOf({ key: 'a', title: 'A', type: 'text', customerEditable: true })).to.deep.equal([
        err('customerEditable', 'invalid_value', 'a field customers may edit must be customer_visible too'),
      ]);
      const seen = rightOf(
        create({ key: 'a', title: 'A', type: 'text', customerEditable: true, customerVisible: true }),
      );
      expect(seen.customerEditable).to.equal(true);
    });
    it('an option value is listed once: each repeat is named', () => {
      const o = (value: string) => ({ value, title: value.toUpperCase() });
      expect(
        errorsOf({ key: 'a', title: 'A', type: 'dropdown', options: [o('x'), o('y'), o('x'), o('x')] }),
      ).to.deep.equal([
        err('options.2.value', 'not_unique', 'option value "x" is listed twice'),
        err('options.3.value', 'not_unique', 'option value "x" is listed twice'),
      ]);
    });
    it('lists every rule broken, in the order above', () => {
      expect(
        errorsOf({
          key: 'a',
          title: 'A',
          type: 'checkbox',
          options: [
            { value: 'x', title: 'X' },
            { value: 'x', title: 'X' },
          ],
          pattern: '.',
          customerEditable: true,
        }).map((e) => e.field),
      ).to.deep.equal(['options', 'pattern', 'customerEditable', 'options.1.value']);
    });
  });

  describe('a change', () => {
    it('keeps key, type and pattern: naming each given otherwise', () => {
      expect(leftOf(patchTicketField(plan, { key: 'tier', type: 'multiselect' }, T + 1))).to.deep.equal([
        err('key', 'read_only', 'cannot change: a field keeps its key (delete it and define another)'),
        err('type', 'read_only', 'cannot change: the field stays a dropdown field'),
      ]);
      expect(leftOf(patchTicketField(order, { pattern: '^ORD-[0-9]{4}$' }, T + 1))).to.deep.equal([
        err('pattern', 'read_only', 'cannot change: values were checked against this pattern'),
      ]);
      expect(leftOf(patchTicketField(order, { pattern: null }, T + 1)).map((e) => e.field)).to.deep.equal(['pattern']);
      expect(leftOf(patchTicketField(plan, { pattern: '.' }, T + 1))).to.deep.equal([
        err('pattern', 'invalid_value', 'only regexp fields take a pattern'),
      ]);
    });
    it('given as they are, key, type and pattern change nothing', () => {
      expect(
        rightOf(patchTicketField(order, { key: 'order', type: 'regexp', pattern: '^ORD-[0-9]+$' }, T + 1)),
      ).to.equal(order);
      expect(rightOf(patchTicketField(plan, { pattern: null }, T + 1))).to.equal(plan);
      expect(rightOf(patchTicketField(plan, {}, T + 1))).to.equal(plan);
    });
    it('an unchanged body is no revision', () => {
      const same = {
        title: plan.title,
        description: plan.description,
        options: plan.options.map((o) => ({ ...o })),
        required: plan.required,
        customerVisible: plan.customerVisible,
        customerEditable: plan.customerEditable,
        position: plan.position,
      };
      expect(rightOf(patchTicketField(plan, same, T + 1))).to.equal(plan);
    });
    it('each member that changes alone makes the next version, at the later time', () => {
      const changes = [
        { title: 'Tier' },
        { description: 'Other' },
        { options: [...plan.options, { value: 'pro', title: 'Pro' }] },
        { required: true },
        { customerVisible: false },
        { customerEditable: true },
        { position: 99 },
      ];
      for (const change of changes) {
        const next = rightOf(patchTicketField(plan, change, T + 5));
        expect(next, JSON.stringify(change)).to.deep.equal({ ...plan, ...change, version: 2, updatedAt: T + 5 });
      }
      // Never back in time.
      expect(rightOf(patchTicketField(plan, { title: 'X' }, T - 5)).updatedAt).to.equal(T);
    });
    it('description: absent keeps it, null clears it', () => {
      expect(rightOf(patchTicketField(plan, { title: 'Tier' }, T + 1)).description).to.equal('The customer plan');
      expect(rightOf(patchTicketField(plan, { description: null }, T + 1)).description).to.equal('');
      expect(rightOf(patchTicketField(plan, { description: 'New' }, T + 1)).description).to.equal('New');
    });
    it('the result must still hold together', () => {
      expect(leftOf(patchTicketField(plan, { options: [] }, T + 1))).to.deep.equal([
        err('options', 'required', 'a dropdown field needs at least one option'),
      ]);
      expect(
        leftOf(patchTicketField(plan, { customerVisible: false, customerEditable: true }, T + 1)).map((e) => e.field),
      ).to.deep.equal(['customerEditable']);
    });
    it('names the option values it removes', () => {
      const after = rightOf(
        patchTicketField(
          plan,
          {
            options: [
              { value: 'gold', title: 'Gold!' },
              { value: 'pro', title: 'Pro' },
            ],
          },
          T + 1,
        ),
      );
      expect(removedOptions(plan, after)).to.deep.equal(['free']);
      expect(removedOptions(after, plan)).to.deep.equal(['pro']);
      expect(removedOptions(plan, plan)).to.deep.equal([]);
    });
  });

  it('fields are shown by position, then by id', () => {
    const at = (n: number, position: number): TicketFieldDefinition => ({ ...plan, id: n as TicketFieldId, position });
    const sorted = [at(1, 2), at(3, 1), at(2, 1), at(4, 0)].sort(byPosition);
    expect(sorted.map((d) => d.id)).to.deep.equal([4, 2, 3, 1]);
    expect(byPosition(at(5, 3), at(5, 3))).to.equal(0);
  });
});
