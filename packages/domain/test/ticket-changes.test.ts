import { expect } from 'chai';
import {
  applyTicketChanges,
  changesNothing,
  createTicket,
  customerReplacementChanges,
  customerTicketFields,
  everyRuleHasAnInput,
  everyTicketFieldHasARule,
  patchChanges,
  replacementChanges,
  ticketChangeRules,
  type Ticket,
  type TicketChanges,
  type TicketReplaceInput,
} from '../src/index.js';
import { aTicket, groupId, MINUTE, rightOf, T0, ticketId, userId } from '../test-support/mothers.js';
import { alice, bob, busyTicket } from './support/tickets.js';

// The ticket's change rules (ticket-changes.ts), each stated as the contract says it: what a
// replacement resets, what a customer may write (contract §2's roles table: subject, summary,
// state to close or reopen, custom fields they may edit), and what a customer's replacement
// leaves alone.
//
// Field by field, read from the rules' own keys, so a new field is checked here without being
// listed: a new ticket (`createTicket`, written apart from the rules) says what each default is,
// and `another` gives each field a value the busy ticket does not have. A rule that resets to another value, that `changesNothing` or
// `applyTicketChanges` skip, or that a patch cannot name fails below, naming the field.

/** A replacement that names only the required fields. */
const bare: TicketReplaceInput = { subject: 'New subject', state: 'open' };

const keys = Object.keys(ticketChangeRules) as (keyof TicketChanges)[];
/** The fields with a default: all but the customer (an omitted customer stays as it is). */
const withDefault = keys.filter((k) => k !== 'customer');
/** The fields create requires: they have no new ticket's value to return to. */
const required: Readonly<Partial<Record<keyof TicketChanges, true>>> = { subject: true };
/** Fields a patch names as a value (custom fields come decoded, beside the input). */
const patchable = withDefault.filter((k) => k !== 'customFields');

/** A new ticket made with only what create requires: every other field at its default. */
const fresh = (): Ticket => createTicket(ticketId(9), { subject: 'A new one' }, alice, T0);
/** A writable field of a ticket by its rule's key (all but customer are kept under their own name). */
const field = (t: Ticket, k: keyof TicketChanges): unknown =>
  k === 'customer' ? { id: t.customerId, name: t.customerName } : t[k];
const valueIn = (o: object, name: string): unknown => (o as Record<string, unknown>)[name];
/**
 * A value of field k that the busy ticket does not have: a new ticket's, else a marker that no
 * ticket holds (the rules compare, copy and write a value without looking inside it, but for the
 * fields with their own comparison, tags and custom fields, which the busy ticket sets).
 */
const another = (k: keyof TicketChanges): unknown => {
  if (k === 'customer') return bob;
  const n = field(fresh(), k);
  return JSON.stringify(n) === JSON.stringify(field(busyTicket(), k)) ? { anotherValueOf: k } : n;
};
const named = (k: keyof TicketChanges, v: unknown): object => ({ [ticketChangeRules[k].input]: v });

describe('ticket change rules', () => {
  it('lets a customer write exactly subject, summary, state, their own customer and custom fields', () => {
    expect([...customerTicketFields].sort()).to.deep.equal(
      ['customFields', 'customerId', 'state', 'subject', 'summary'].sort(),
    );
  });

  it("names the customer's input customerId and each other field by its own name", () => {
    for (const k of keys) expect(ticketChangeRules[k].input, k).to.equal(k === 'customer' ? 'customerId' : k);
  });

  it("resets each optional field to a new ticket's value, and a customer to the one the ticket has", () => {
    const t = busyTicket();
    for (const k of withDefault.filter((f) => required[f] === undefined))
      expect(ticketChangeRules[k].reset(t), k).to.deep.equal(field(fresh(), k));
    expect(ticketChangeRules.customer.reset(t)).to.deep.equal({ id: t.customerId, name: t.customerName });
    // The contract's words for the defaults it names.
    const resets = Object.fromEntries(keys.map((k) => [k, ticketChangeRules[k].reset(t)]));
    expect(resets).to.deep.include({
      subject: '',
      summary: '',
      state: 'open',
      priority: 'normal',
      assignedUserId: null,
      groupId: null,
      tags: [],
      customFields: {},
    });
  });

  it('the build-time checks hold (every ticket field has a rule, every rule an input)', () => {
    expect(everyTicketFieldHasARule).to.equal(true);
    expect(everyRuleHasAnInput).to.equal(true);
  });

  describe('changesNothing and applyTicketChanges, field by field', () => {
    it('see no change when every field is as stored, or an equal copy of it, and write nothing', () => {
      const t = busyTicket();
      const same = patchChanges(t, {}, null);
      expect(changesNothing(t, same)).to.equal(true);
      expect(rightOf(applyTicketChanges(t, same, T0 + MINUTE))).to.equal(t);
      for (const k of keys) expect(changesNothing(t, { ...same, [k]: structuredClone(field(t, k)) }), k).to.equal(true);
    });

    it('see a change in each field alone, and write that field and only it, with a new version', () => {
      const t = busyTicket();
      const same = patchChanges(t, {}, null);
      for (const k of keys) {
        const value = another(k);
        const written = k === 'customer' ? { customerId: bob.id, customerName: bob.name } : { [k]: value };
        const changes = { ...same, [k]: value };
        expect(changesNothing(t, changes), k).to.equal(false);
        expect(rightOf(applyTicketChanges(t, changes, T0 + MINUTE)), k).to.deep.equal({
          ...t,
          ...written,
          updatedAt: T0 + MINUTE,
          version: t.version + 1,
        });
      }
    });
  });

  describe('replacementChanges', () => {
    it("returns omitted optional fields to a new ticket's values and keeps the customer when none is given", () => {
      const t = busyTicket();
      const c = replacementChanges(t, bare, null);
      expect(Object.keys(c).sort()).to.deep.equal([...keys].sort());
      for (const k of keys) {
        const given = valueIn(bare, ticketChangeRules[k].input);
        const kept = k === 'customer' || k === 'customFields';
        expect(c[k], k).to.deep.equal(kept ? field(t, k) : (given ?? field(fresh(), k)));
      }
    });

    it('takes the given customer and custom values', () => {
      const t = busyTicket();
      const c = replacementChanges(t, bare, bob, { 7: 'gold' });
      expect(c.customer).to.deep.equal(bob);
      expect(c.customFields).to.deep.equal({ 7: 'gold' });
    });
  });

  describe("customerReplacementChanges: a customer's replacement", () => {
    it('replaces subject, summary and state, resetting an omitted summary', () => {
      const t = busyTicket();
      const c = customerReplacementChanges(t, bare);
      expect([c.subject, c.summary, c.state]).to.deep.equal(['New subject', '', 'open']);
    });

    it('leaves priority, assignee, group, tags and the customer as they are, whatever the input says', () => {
      const t = busyTicket();
      const c = customerReplacementChanges(t, {
        ...bare,
        priority: 'low',
        assignedUserId: userId(9),
        groupId: groupId(9),
        tags: ['mine'],
        customerId: bob.id,
      });
      expect(c).to.deep.include({
        priority: 'urgent',
        assignedUserId: 3,
        groupId: 4,
        tags: ['hardware', 'fire'],
        customer: { id: t.customerId, name: t.customerName },
      });
    });

    it('leaves every field a customer may not write as it is, given or left out', () => {
      const t = busyTicket();
      const everyOther = {
        ...bare,
        ...Object.fromEntries(patchable.map((k) => [ticketChangeRules[k].input, another(k)])),
      };
      for (const input of [bare, everyOther]) {
        const c = customerReplacementChanges(t, input);
        for (const k of keys.filter((f) => !ticketChangeRules[f].customerWrites))
          expect(c[k], k).to.deep.equal(field(t, k));
      }
    });

    it('takes the custom values the use case decoded, else keeps the ticket’s', () => {
      const t = aTicket({ customFields: { 3: 'x' } });
      expect(customerReplacementChanges(t, bare).customFields).to.deep.equal({ 3: 'x' });
      expect(customerReplacementChanges(t, bare, { 3: 'y' }).customFields).to.deep.equal({ 3: 'y' });
    });
  });

  describe('patchChanges', () => {
    it('keeps what is not given, resets what is given null, takes the rest', () => {
      const t = busyTicket();
      const c = patchChanges(t, { summary: null, priority: 'low', tags: null } as never, null);
      expect(c).to.deep.include({
        subject: t.subject,
        summary: '',
        priority: 'low',
        tags: [],
        assignedUserId: 3,
        groupId: 4,
      });
      expect(patchChanges(t, {}, bob).customer).to.deep.equal(bob);
    });

    it("changes each field it names alone: null returns it to a new ticket's value, a value is taken", () => {
      const t = busyTicket();
      const n = fresh();
      const same = patchChanges(t, {}, null);
      for (const k of patchable) {
        if (required[k] === undefined)
          expect(patchChanges(t, named(k, null), null), k).to.deep.equal({
            ...same,
            [k]: field(n, k),
          });
        expect(patchChanges(t, named(k, another(k)), null), k).to.deep.equal({ ...same, [k]: another(k) });
      }
    });
  });
});
