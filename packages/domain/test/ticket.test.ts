import { expect } from 'chai';
import fc from 'fast-check';
import {
  applyTicketChanges,
  changesNothing,
  createTicket,
  deleteTicket,
  patchChanges,
  renameCustomer,
  replacementChanges,
  ticketWords,
  touchTicket,
  unassignTicket,
  ungroupTicket,
  type Priority,
  type Ticket,
  type TicketPatchInput,
} from '../src/index.js';
import {
  aCustomer,
  aTicket,
  fieldCodes,
  groupId,
  leftOf,
  MINUTE,
  rightOf,
  T0,
  ticketId,
  userId,
} from '../test-support/mothers.js';

const alice = aCustomer();
const bob = aCustomer(5, 'Bob Builder');

/** A ticket with every optional field away from its default. */
const busyTicket = (): Ticket =>
  aTicket({
    subject: 'Printer on fire',
    summary: 'Smoke everywhere',
    state: 'pending',
    priority: 'urgent',
    assignedUserId: 3,
    groupId: 4,
    tags: ['hardware', 'fire'],
  });

describe('ticket', () => {
  describe('createTicket', () => {
    it('starts open, normal priority, empty summary and tags, unassigned, not closed, version 1', () => {
      const t = createTicket(ticketId(9), { subject: 'Printer on fire' }, alice, T0);
      expect(t).to.deep.equal({
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
        subject: 'Printer fixed',
        summary: '',
        state: 'open',
        priority: 'normal',
        customer: { id: 1, name: 'Ada Lovelace' },
        assignedUserId: null,
        groupId: null,
        tags: [],
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
        subject: 's',
        summary: 'y',
        state: 'closed',
        priority: 'low',
        customer: bob,
        assignedUserId: 7,
        groupId: 8,
        tags: ['t'],
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

  describe('applyTicketChanges', () => {
    it('returns the very same ticket when nothing changes: no new version, no new updated_at', () => {
      const t = busyTicket();
      expect(rightOf(applyTicketChanges(t, patchChanges(t, {}, null), T0 + MINUTE))).to.equal(t);
      expect(
        rightOf(
          applyTicketChanges(t, patchChanges(t, { priority: 'urgent', tags: ['hardware', 'fire'] }, null), T0 + MINUTE),
        ),
      ).to.equal(t);
      const put = replacementChanges(
        t,
        {
          subject: t.subject,
          summary: t.summary,
          state: 'pending',
          priority: 'urgent',
          assignedUserId: userId(3),
          groupId: groupId(4),
          tags: ['hardware', 'fire'],
        },
        null,
      );
      expect(rightOf(applyTicketChanges(t, put, T0 + MINUTE))).to.equal(t);
    });

    it('bumps the version and updated_at when something changes, and keeps the rest', () => {
      const t = busyTicket();
      const next = rightOf(applyTicketChanges(t, patchChanges(t, { summary: 'Only smoke now' }, null), T0 + MINUTE));
      expect(next).to.deep.equal({ ...t, summary: 'Only smoke now', updatedAt: T0 + MINUTE, version: 2 });
    });

    it('counts a change of tag order, customer or customer name as a change', () => {
      const t = busyTicket();
      expect(
        rightOf(applyTicketChanges(t, patchChanges(t, { tags: ['fire', 'hardware'] }, null), T0 + 1)).version,
      ).to.equal(2);
      expect(rightOf(applyTicketChanges(t, patchChanges(t, {}, bob), T0 + 1))).to.deep.include({
        customerId: 5,
        customerName: 'Bob Builder',
        version: 2,
      });
      expect(
        rightOf(applyTicketChanges(t, patchChanges(t, {}, aCustomer(2, 'Alice Pleasance')), T0 + 1)).version,
      ).to.equal(2);
    });

    it('never moves updated_at backwards', () => {
      const t = aTicket({ updatedAt: T0 + 10 * MINUTE });
      expect(rightOf(applyTicketChanges(t, patchChanges(t, { subject: 'x' }, null), T0)).updatedAt).to.equal(
        T0 + 10 * MINUTE,
      );
    });

    it('refuses closed -> pending as invalid_transition on state, even with other changes', () => {
      const t = aTicket({ state: 'closed', closedAt: T0 });
      expect(
        fieldCodes(leftOf(applyTicketChanges(t, patchChanges(t, { state: 'pending' }, null), T0 + 1))),
      ).to.deep.equal([['state', 'invalid_transition']]);
      expect(
        fieldCodes(
          leftOf(applyTicketChanges(t, patchChanges(t, { state: 'pending', subject: 'other' }, null), T0 + 1)),
        ),
      ).to.deep.equal([['state', 'invalid_transition']]);
    });

    it('sets closed_at on closing, keeps it on other changes while closed, clears it on reopening', () => {
      const open = aTicket({ state: 'open' });
      const closed = rightOf(applyTicketChanges(open, patchChanges(open, { state: 'closed' }, null), T0 + MINUTE));
      expect(closed).to.deep.include({ state: 'closed', closedAt: T0 + MINUTE });
      const edited = rightOf(
        applyTicketChanges(closed, patchChanges(closed, { summary: 'post mortem' }, null), T0 + 2 * MINUTE),
      );
      expect(edited).to.deep.include({ state: 'closed', closedAt: T0 + MINUTE, updatedAt: T0 + 2 * MINUTE });
      const reclosed = rightOf(
        applyTicketChanges(edited, patchChanges(edited, { state: 'closed', summary: 'again' }, null), T0 + 3 * MINUTE),
      );
      expect(reclosed.closedAt).to.equal(T0 + MINUTE);
      const reopened = rightOf(
        applyTicketChanges(reclosed, patchChanges(reclosed, { state: 'open' }, null), T0 + 4 * MINUTE),
      );
      expect(reopened).to.deep.include({ state: 'open', closedAt: null });
    });
  });

  describe('other writes', () => {
    it('touchTicket (a new message) bumps version and updated_at only', () => {
      const t = busyTicket();
      expect(touchTicket(t, T0 + MINUTE)).to.deep.equal({ ...t, updatedAt: T0 + MINUTE, version: 2 });
      expect(touchTicket(aTicket({ updatedAt: T0 + MINUTE }), T0).updatedAt).to.equal(T0 + MINUTE);
    });

    it('deleteTicket marks the ticket deleted and bumps the version', () => {
      const t = busyTicket();
      expect(deleteTicket(t, T0 + MINUTE)).to.deep.equal({
        ...t,
        deletedAt: T0 + MINUTE,
        updatedAt: T0 + MINUTE,
        version: 2,
      });
    });

    it('renameCustomer changes the kept customer name, moves updated_at forward and bumps the version', () => {
      const t = busyTicket();
      expect(renameCustomer(t, 'Alice Pleasance', T0 + MINUTE)).to.deep.equal({
        ...t,
        customerName: 'Alice Pleasance',
        updatedAt: T0 + MINUTE,
        version: 2,
      });
      expect(renameCustomer(aTicket({ updatedAt: T0 + MINUTE }), 'Alice', T0).updatedAt).to.equal(T0 + MINUTE);
    });

    it('unassignTicket and ungroupTicket drop the reference, move updated_at forward and bump the version', () => {
      const t = aTicket({ assignedUserId: userId(7), groupId: groupId(3), version: 4 });
      expect(unassignTicket(t, T0 + MINUTE)).to.deep.equal({
        ...t,
        assignedUserId: null,
        updatedAt: T0 + MINUTE,
        version: 5,
      });
      expect(ungroupTicket(t, T0 + MINUTE)).to.deep.equal({ ...t, groupId: null, updatedAt: T0 + MINUTE, version: 5 });
      expect(unassignTicket(aTicket({ updatedAt: T0 + MINUTE }), T0).updatedAt).to.equal(T0 + MINUTE);
    });
  });

  describe('ticketWords', () => {
    it('covers subject, summary and customer name, folded, each word once', () => {
      const words = ticketWords(
        aTicket({ subject: 'Printer on FIRE', summary: 'Fire in room 101', customerName: 'Zoë Ångström' }),
      );
      expect(words).to.have.members(['printer', 'on', 'fire', 'in', 'room', '101', 'zoe', 'angstrom']);
      expect(words).to.have.length(8);
    });

    it('does not look at tags', () => {
      expect(ticketWords(aTicket({ subject: 's', summary: '', customerName: 'c', tags: ['hardware'] }))).to.not.include(
        'hardware',
      );
    });
  });
});

describe('ticket: what counts as a change', () => {
  it('sees a change in any one writable field, and none when every field is as stored', () => {
    const t = aTicket({ assignedUserId: userId(9), groupId: groupId(2), tags: ['a', 'b'] });
    const same = patchChanges(t, {}, null);
    expect(changesNothing(t, same)).to.equal(true);
    expect(changesNothing(t, { ...same, tags: ['a', 'b'] })).to.equal(true);
    const oneChanged = {
      subject: { ...same, subject: 'Other' },
      summary: { ...same, summary: 'Other' },
      state: { ...same, state: 'pending' as const },
      priority: { ...same, priority: 'urgent' as const },
      customerId: { ...same, customer: { ...same.customer, id: userId(77) } },
      customerName: { ...same, customer: { ...same.customer, name: 'Someone Else' } },
      assignedUserId: { ...same, assignedUserId: null },
      groupId: { ...same, groupId: null },
      tags: { ...same, tags: ['b', 'a'] },
    };
    for (const [field, changes] of Object.entries(oneChanged))
      expect(changesNothing(t, changes), field).to.equal(false);
  });

  it('says which move the state machine refuses', () => {
    const closed = aTicket({ state: 'closed', closedAt: T0 });
    expect(
      leftOf(applyTicketChanges(closed, { ...patchChanges(closed, {}, null), state: 'pending' }, T0 + MINUTE)),
    ).to.deep.equal([{ field: 'state', code: 'invalid_transition', message: 'a closed ticket cannot become pending' }]);
  });
});
