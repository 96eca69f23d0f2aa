import { expect } from 'chai';
import fc from 'fast-check';
import {
  applyTicketChanges,
  changesNothing,
  createTicket,
  patchChanges,
  replacementChanges,
  ticketUpgrades,
  type Priority,
  type TicketPatchInput,
} from '../src/index.js';
import { aTicket, groupId, MINUTE, rightOf, T0, ticketId, userId } from '../test-support/mothers.js';
import { alice, bob, busyTicket } from './support/tickets.js';

describe('ticket', () => {
  describe('createTicket', () => {
    it('starts open, normal priority, empty summary and tags, unassigned, not closed, version 1', () => {
      const t = createTicket(ticketId(9), { subject: 'Printer on fire' }, alice, T0);
      // A field added since the first format starts where an older ticket is read back (ticketUpgrades).
      expect(t).to.deep.equal({
        ...ticketUpgrades,
        id: 9,
        subject: 'Printer on fire',
        summary: '',
        state: 'open',
        priority: 'normal',
        customerId: 1,
        customerName: 'Ada Lovelace',
        assignedUserId: null,
        groupId: null,
        tags: [],
        customFields: {},
        createdAt: T0,
        updatedAt: T0,
        closedAt: null,
        deletedAt: null,
        version: 1,
      });
    });

    it('takes the given optional fields', () => {
      const t = createTicket(
        ticketId(9),
        { subject: 's', summary: 'x', priority: 'high', assignedUserId: userId(3), groupId: groupId(4), tags: ['a'] },
        bob,
        T0,
      );
      expect(t).to.deep.include({
        summary: 'x',
        priority: 'high',
        assignedUserId: 3,
        groupId: 4,
        tags: ['a'],
        customerId: 5,
        customerName: 'Bob Builder',
      });
    });
  });

  describe('replacementChanges (PUT)', () => {
    it('returns every omitted optional field to its default and keeps the customer when none is given', () => {
      const c = replacementChanges(busyTicket(), { subject: 'Printer fixed' }, null);
      expect(c).to.deep.equal({
        ...ticketUpgrades,
        subject: 'Printer fixed',
        summary: '',
        state: 'open',
        priority: 'normal',
        customer: { id: 1, name: 'Ada Lovelace' },
        assignedUserId: null,
        groupId: null,
        tags: [],
        customFields: {},
      });
    });

    it('takes every given field, and a new customer', () => {
      const c = replacementChanges(
        busyTicket(),
        {
          subject: 's',
          summary: 'y',
          state: 'closed',
          priority: 'low',
          assignedUserId: userId(7),
          groupId: groupId(8),
          tags: ['t'],
        },
        bob,
      );
      expect(c).to.deep.equal({
        ...ticketUpgrades,
        subject: 's',
        summary: 'y',
        state: 'closed',
        priority: 'low',
        customer: bob,
        assignedUserId: 7,
        groupId: 8,
        tags: ['t'],
        customFields: {},
      });
    });

    it('a PUT without state reopens a closed ticket and clears closed_at', () => {
      const closed = aTicket({ state: 'closed', closedAt: T0 });
      const t = rightOf(
        applyTicketChanges(closed, replacementChanges(closed, { subject: closed.subject }, null), T0 + MINUTE),
      );
      expect(t.state).to.equal('open');
      expect(t.closedAt).to.equal(null);
    });
  });

  describe('patchChanges (PATCH)', () => {
    it('changes nothing for an empty patch', () => {
      const t = busyTicket();
      expect(changesNothing(t, patchChanges(t, {}, null))).to.equal(true);
    });

    it('changes only the given fields', () => {
      const t = busyTicket();
      const c = patchChanges(t, { priority: 'low' }, null);
      expect(c).to.deep.equal({ ...patchChanges(t, {}, null), priority: 'low' });
      expect(patchChanges(t, { subject: 'new' }, null).subject).to.equal('new');
      expect(patchChanges(t, { state: 'open' }, null).state).to.equal('open');
      expect(patchChanges(t, {}, bob).customer).to.deep.equal(bob);
    });

    it('returns a field given as null to its default', () => {
      const c = patchChanges(
        busyTicket(),
        { summary: null, priority: null, tags: null, assignedUserId: null, groupId: null },
        null,
      );
      expect(c).to.deep.include({ summary: '', priority: 'normal', tags: [], assignedUserId: null, groupId: null });
      expect(c.subject).to.equal('Printer on fire');
      expect(c.state).to.equal('pending');
    });

    it('property: a field is changed iff the patch names it', () => {
      const patchArb = fc.record(
        {
          subject: fc.constant('Other subject'),
          summary: fc.constantFrom('Other summary', null),
          priority: fc.constantFrom<Priority | null>('low', null),
          tags: fc.constantFrom<readonly string[] | null>(['other'], null),
          assignedUserId: fc.constantFrom(userId(9), null),
          groupId: fc.constantFrom(groupId(9), null),
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(patchArb, (patch: TicketPatchInput) => {
          const t = busyTicket();
          const c = patchChanges(t, patch, null);
          expect(c.subject !== t.subject).to.equal('subject' in patch);
          expect(c.summary !== t.summary).to.equal('summary' in patch);
          expect(c.priority !== t.priority).to.equal('priority' in patch);
          expect(c.tags !== t.tags).to.equal('tags' in patch);
          expect(c.assignedUserId !== t.assignedUserId).to.equal('assignedUserId' in patch);
          expect(c.groupId !== t.groupId).to.equal('groupId' in patch);
          expect(c.state).to.equal(t.state);
          expect(c.customer).to.deep.equal({ id: t.customerId, name: t.customerName });
        }),
        { numRuns: 200 },
      );
    });
  });
});
