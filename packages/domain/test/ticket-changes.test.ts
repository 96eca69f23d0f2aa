import { expect } from 'chai';
import {
  customerReplacementChanges,
  customerTicketFields,
  everyRuleHasAnInput,
  everyTicketFieldHasARule,
  patchChanges,
  replacementChanges,
  ticketChangeRules,
  type TicketReplaceInput,
} from '../src/index.js';
import { aTicket, groupId, userId } from '../test-support/mothers.js';
import { bob, busyTicket } from './support/tickets.js';

// The ticket's change rules (ticket-changes.ts), each stated as the contract says it: what a
// replacement resets, what a customer may write (contract §2's roles table: subject, summary,
// state to close or reopen, custom fields they may edit), and what a customer's replacement
// leaves alone.

/** A replacement that names only the required fields. */
const bare: TicketReplaceInput = { subject: 'New subject', state: 'open' };

describe('ticket change rules', () => {
  it('lets a customer write exactly subject, summary, state, their own customer and custom fields', () => {
    expect([...customerTicketFields].sort()).to.deep.equal(
      ['customFields', 'customerId', 'state', 'subject', 'summary'].sort(),
    );
  });

  it("names the customer's input customerId and each other field by its own name", () => {
    expect(Object.fromEntries(Object.entries(ticketChangeRules).map(([k, r]) => [k, r.input]))).to.deep.equal({
      subject: 'subject',
      summary: 'summary',
      state: 'state',
      priority: 'priority',
      customer: 'customerId',
      assignedUserId: 'assignedUserId',
      groupId: 'groupId',
      tags: 'tags',
      customFields: 'customFields',
    });
  });

  it('resets each field to its documented default, and a customer to the one the ticket has', () => {
    const t = busyTicket();
    expect(Object.fromEntries(Object.entries(ticketChangeRules).map(([k, r]) => [k, r.reset(t)]))).to.deep.equal({
      subject: '',
      summary: '',
      state: 'open',
      priority: 'normal',
      customer: { id: t.customerId, name: t.customerName },
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

  describe('replacementChanges', () => {
    it('returns omitted optional fields to their defaults and keeps the customer when none is given', () => {
      const t = busyTicket();
      expect(replacementChanges(t, bare, null)).to.deep.equal({
        subject: 'New subject',
        summary: '',
        state: 'open',
        priority: 'normal',
        customer: { id: t.customerId, name: t.customerName },
        assignedUserId: null,
        groupId: null,
        tags: [],
        customFields: t.customFields,
      });
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
      // ... and left out, they stay too (not reset as an agent's replacement would).
      expect(customerReplacementChanges(t, bare)).to.deep.include({
        priority: 'urgent',
        assignedUserId: 3,
        groupId: 4,
        tags: ['hardware', 'fire'],
      });
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
  });
});
