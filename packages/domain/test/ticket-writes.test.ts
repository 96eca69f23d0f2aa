import { expect } from 'chai';
import {
  applyTicketChanges,
  changesNothing,
  deleteTicket,
  patchChanges,
  renameCustomer,
  replacementChanges,
  ticketWords,
  touchTicket,
  unassignTicket,
  ungroupTicket,
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
  userId,
} from '../test-support/mothers.js';
import { bob, busyTicket } from './support/tickets.js';

describe('ticket', () => {
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
