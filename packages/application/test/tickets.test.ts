import { noQueueConditions } from '@support/domain';
import type { DomainError, FieldError, GroupId, TicketId, UserId } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor, TicketView } from '../src/index.js';
import { sortOf } from '../test-support/index.js';
import { decoded, embed, leftOf, page, rightOf, ticketQuery, world } from './support/world.js';

const fieldsOf = (e: DomainError): Array<[string, string]> =>
  e._tag === 'ValidationFailed' ? e.errors.map((x: FieldError) => [x.field, x.code]) : [];

describe('tickets', () => {
  describe('creating', () => {
    it('makes the customer who creates a ticket its customer, open, normal priority', async () => {
      const w = await world();
      const alice = await w.customer('Alice Liddell');
      const view = rightOf(
        await w.app.tickets.create(alice, decoded({ subject: 'Printer on fire', summary: 'smoke' })),
      );
      expect(view.ticket).to.include({
        customerId: alice.user.id,
        customerName: 'Alice Liddell',
        state: 'open',
        priority: 'normal',
      });
      expect(view.ticket.createdAt).to.equal(w.clock.now());
      expect(view.ticket.closedAt).to.equal(null);
    });

    it('numbers tickets 1, 2, 3', async () => {
      const w = await world();
      const alice = await w.customer();
      const ids = [await w.ticket(alice), await w.ticket(alice), await w.ticket(alice)];
      expect(ids).to.deep.equal([1, 2, 3]);
    });

    it('forbids customers to set fields reserved for agents', async () => {
      const w = await world();
      const alice = await w.customer();
      const e = leftOf(await w.app.tickets.create(alice, decoded({ subject: 's', priority: 'urgent', tags: ['x'] })));
      expect(e._tag).to.equal('Forbidden');
      expect(e._tag === 'Forbidden' && e.fields).to.deep.equal(['priority', 'tags']);
    });

    it('reports every bad reference of an agent-created ticket at once', async () => {
      const w = await world();
      const agent = await w.agent();
      const bob = await w.customer();
      const noCustomer = leftOf(await w.app.tickets.create(agent, decoded({ subject: 's' })));
      expect(fieldsOf(noCustomer)).to.deep.equal([['customerId', 'required']]);
      const bad = leftOf(
        await w.app.tickets.create(
          agent,
          decoded({ subject: 's', customerId: 999 as UserId, assignedUserId: bob.user.id, groupId: 5 as GroupId }),
        ),
      );
      expect(fieldsOf(bad)).to.have.deep.members([
        ['customerId', 'unknown_reference'],
        ['assignedUserId', 'unknown_reference'],
        ['groupId', 'unknown_reference'],
      ]);
      expect(
        (
          await w.ports.tickets.search(
            { ...noQueueConditions, states: null, customerId: null, words: [], closedSince: null },
            sortOf('id'),
            0,
            10,
          )
        ).total,
      ).to.equal(0);
    });

    it('answers a refused body with its errors, adding a missing customerId when staff create the ticket', async () => {
      const w = await world();
      const [alice, agent] = [await w.customer(), await w.agent()];
      const errors = [{ field: 'subject', code: 'invalid_length' as const, message: 'too short' }];
      const create = async (actor: Actor, given: string[] | null) =>
        leftOf(await w.app.tickets.create(actor, E.left({ errors, given })));
      expect(fieldsOf(await create(agent, ['subject']))).to.deep.equal([
        ['subject', 'invalid_length'],
        ['customerId', 'required'],
      ]);
      expect(fieldsOf(await create(agent, ['subject', 'customerId'])), 'named, even if refused').to.deep.equal([
        ['subject', 'invalid_length'],
      ]);
      expect(fieldsOf(await create(alice, ['subject'])), 'a customer is the customer').to.deep.equal([
        ['subject', 'invalid_length'],
      ]);
      expect(fieldsOf(await create(agent, null)), 'not an object: nothing to add').to.deep.equal([
        ['subject', 'invalid_length'],
      ]);
    });
  });

  describe('visibility', () => {
    it("answers another customer's ticket as not found, never forbidden", async () => {
      const w = await world();
      const [alice, mallory] = [await w.customer(), await w.customer()];
      const id = await w.ticket(alice);
      expect(leftOf(await w.app.tickets.get(mallory, id, embed()))._tag).to.equal('NotFound');
      expect(leftOf(await w.app.tickets.patch(mallory, id, decoded({ subject: 'mine now' })))._tag).to.equal(
        'NotFound',
      );
      expect(leftOf(await w.app.tickets.delete(mallory, id))._tag).to.equal('NotFound');
      expect(rightOf(await w.app.tickets.get(alice, id, embed())).ticket.id).to.equal(id);
    });

    it('lists to a customer only their own tickets, to an agent all', async () => {
      const w = await world();
      const [alice, bob, agent] = [await w.customer(), await w.customer(), await w.agent()];
      await w.ticket(alice);
      await w.ticket(bob);
      await w.ticket(alice);
      const mine = rightOf(await w.app.tickets.list(alice, ticketQuery()));
      expect(mine.items.map((v) => v.ticket.customerId)).to.deep.equal([alice.user.id, alice.user.id]);
      expect(mine.total).to.equal(2);
      expect(rightOf(await w.app.tickets.list(agent, ticketQuery())).total).to.equal(3);
    });

    it('shows a customer the assigned agent by id and name only', async () => {
      const w = await world();
      const [alice, agent] = [await w.customer(), await w.agent('Agent Smith')];
      const id = await w.ticket(alice, { assignedUserId: agent.user.id });
      const read = rightOf(await w.app.tickets.get(alice, id, embed('assignedUser', 'customer')));
      expect(read.related.assignedUser).to.deep.equal({ kind: 'limited', id: agent.user.id, name: 'Agent Smith' });
      expect(read.related.customer).to.deep.include({ kind: 'full' });
      const forAgent = rightOf(await w.app.tickets.get(agent, id, embed('assignedUser')));
      expect(forAgent.related.assignedUser).to.deep.include({ kind: 'full' });
    });
  });

  describe('listing', () => {
    const subjects = (items: readonly TicketView[]): string[] => items.map((v) => v.ticket.subject);

    it('filters by state list, searches accent- and case-insensitively, sorts and pages', async () => {
      const w = await world();
      const agent = await w.agent();
      const alice = await w.customer('Zoë Ångström');
      const a = await w.ticket(alice, { subject: 'Café machine broken', priority: 'low' });
      w.clock.advance(1000);
      await w.ticket(alice, { subject: 'Printer jam', priority: 'urgent' });
      w.clock.advance(1000);
      const c = await w.ticket(alice, { subject: 'CAFE order', priority: 'urgent' });
      rightOf(await w.app.tickets.patch(agent, a, decoded({ state: 'pending' })));

      expect(subjects(rightOf(await w.app.tickets.list(agent, ticketQuery({ q: 'cafe' }))).items)).to.deep.equal([
        'CAFE order',
        'Café machine broken',
      ]);
      expect(subjects(rightOf(await w.app.tickets.list(agent, ticketQuery({ q: 'café BROKEN' }))).items)).to.deep.equal(
        ['Café machine broken'],
      );
      expect(
        rightOf(await w.app.tickets.list(agent, ticketQuery({ q: 'angstrom' }))).total,
        'customer name is searchable',
      ).to.equal(3);
      expect(
        subjects(
          rightOf(await w.app.tickets.list(agent, ticketQuery({ ...noQueueConditions, states: ['open'] }))).items,
        ),
      ).to.deep.equal(['CAFE order', 'Printer jam']);
      expect(
        rightOf(await w.app.tickets.list(agent, ticketQuery({ ...noQueueConditions, states: ['open', 'pending'] })))
          .total,
      ).to.equal(3);
      expect(
        subjects(rightOf(await w.app.tickets.list(agent, ticketQuery({ sort: ['-priority', 'createdAt'] }))).items),
      ).to.deep.equal(['Printer jam', 'CAFE order', 'Café machine broken']);
      const page2 = rightOf(await w.app.tickets.list(agent, ticketQuery({ sort: ['id'], perPage: 2, page: 2 })));
      expect(page2.items.map((v) => v.ticket.id)).to.deep.equal([c]);
      expect(page2.total).to.equal(3);
    });

    it('answers a query the edge refused with every issue it found', async () => {
      const w = await world();
      const issues = [
        { parameter: 'state', value: 'opened', message: 'unknown state' },
        { parameter: 'per_page', value: '500', message: 'too many' },
      ];
      expect(leftOf(await w.app.tickets.list(w.admin, E.left(issues)))).to.deep.equal({ _tag: 'InvalidQuery', issues });
    });

    it('the recently closed are the tickets closed in the last 7 days, newest closing first', async () => {
      const w = await world();
      const alice = await w.customer();
      const old = await w.ticket(alice, { subject: 'old' });
      const a = await w.ticket(alice, { subject: 'a' });
      const b = await w.ticket(alice, { subject: 'b' });
      await w.ticket(alice, { subject: 'still open' });
      rightOf(await w.app.tickets.patch(alice, old, decoded({ state: 'closed' })));
      w.clock.advance(8 * 86400_000 - 5000);
      rightOf(await w.app.tickets.patch(alice, b, decoded({ state: 'closed' })));
      w.clock.advance(1000);
      rightOf(await w.app.tickets.patch(alice, a, decoded({ state: 'closed' })));
      w.clock.advance(4000);
      expect(
        subjects(rightOf(await w.app.tickets.list(alice, ticketQuery({ recentlyClosed: true }))).items),
      ).to.deep.equal(['a', 'b']);
      expect(
        rightOf(await w.app.tickets.list(alice, ticketQuery({ recentlyClosed: true, states: ['open'] }))).total,
      ).to.equal(0);
    });
  });

  describe('changing', () => {
    it('PUT replaces every writable field: omitted optional ones return to their defaults', async () => {
      const w = await world();
      const alice = await w.customer();
      const id = await w.ticket(alice, { summary: 'long story', priority: 'high', tags: ['vip'] });
      const v = rightOf(await w.app.tickets.replace(w.admin, id, decoded({ subject: 'new subject' }))).ticket;
      expect(v).to.include({
        subject: 'new subject',
        summary: '',
        priority: 'normal',
        state: 'open',
        customerId: alice.user.id,
      });
      expect(v.tags).to.deep.equal([]);
    });

    it("a customer's PUT leaves the fields they cannot write alone", async () => {
      const w = await world();
      const alice = await w.customer();
      const id = await w.ticket(alice, { priority: 'high', tags: ['vip'] });
      const v = rightOf(await w.app.tickets.replace(alice, id, decoded({ subject: 'edited', state: 'closed' }))).ticket;
      expect(v).to.include({ subject: 'edited', priority: 'high', state: 'closed' });
      expect(v.tags).to.deep.equal(['vip']);
    });

    it('PATCH changes only the given fields; null returns a field to its default', async () => {
      const w = await world();
      const alice = await w.customer();
      const id = await w.ticket(alice, { summary: 'details', priority: 'high' });
      const v = rightOf(await w.app.tickets.patch(w.admin, id, decoded({ priority: null, tags: ['a', 'b'] }))).ticket;
      expect(v).to.include({ summary: 'details', priority: 'normal' });
      expect(v.tags).to.deep.equal(['a', 'b']);
    });

    it('runs the state machine: closed_at set on closing, cleared on reopening; closed -> pending refused', async () => {
      const w = await world();
      const alice = await w.customer();
      const agent = await w.agent();
      const id = await w.ticket(alice);
      w.clock.advance(5000);
      const closed = rightOf(await w.app.tickets.patch(alice, id, decoded({ state: 'closed' }))).ticket;
      expect(closed.closedAt).to.equal(w.clock.now());
      const refused = leftOf(await w.app.tickets.patch(agent, id, decoded({ state: 'pending' })));
      expect(fieldsOf(refused)).to.deep.equal([['state', 'invalid_transition']]);
      expect(
        rightOf(await w.app.tickets.get(agent, id, embed())).ticket.state,
        'a refused write changes nothing',
      ).to.equal('closed');
      const reopened = rightOf(await w.app.tickets.patch(alice, id, decoded({ state: 'open' }))).ticket;
      expect(reopened.closedAt).to.equal(null);
    });

    it('lets customers close and reopen, but not set pending', async () => {
      const w = await world();
      const alice = await w.customer();
      const id = await w.ticket(alice);
      expect(leftOf(await w.app.tickets.patch(alice, id, decoded({ state: 'pending' })))._tag).to.equal('Forbidden');
      expect(leftOf(await w.app.tickets.patch(alice, id, decoded({ priority: 'high' })))._tag).to.equal('Forbidden');
    });

    it('keeps version and updated_at when a write changes nothing', async () => {
      const w = await world();
      const alice = await w.customer();
      const id = await w.ticket(alice, { subject: 'same' });
      w.clock.advance(1000);
      const v = rightOf(await w.app.tickets.patch(alice, id, decoded({ subject: 'same' }))).ticket;
      expect(v.version).to.equal(1);
      expect(v.updatedAt).to.equal(v.createdAt);
    });

    it('refuses a write whose precondition no longer holds, changing nothing', async () => {
      const w = await world();
      const alice = await w.customer();
      const id = await w.ticket(alice, { subject: 'before' });
      const e = leftOf(await w.app.tickets.patch(alice, id, decoded({ subject: 'after' }), { ifMatch: () => false }));
      expect(e._tag).to.equal('PreconditionFailed');
      expect(rightOf(await w.app.tickets.get(alice, id, embed())).ticket.subject).to.equal('before');
      const ok = rightOf(
        await w.app.tickets.patch(alice, id, decoded({ subject: 'after' }), { ifMatch: (v) => v.ticket.version === 1 }),
      );
      expect(ok.ticket.subject).to.equal('after');
    });

    it('a stale expected version is refused even when the precondition held when it was checked', async () => {
      const w = await world();
      const alice = await w.customer();
      const id = await w.ticket(alice, { subject: 'v1' });
      // Another writer lands between the precondition check and the write.
      const precondition = (v: TicketView): boolean => {
        void w.ports.tickets.update(
          { ...v.ticket, subject: 'sneaky', version: v.ticket.version + 1 },
          v.ticket.version,
        );
        return true;
      };
      const e = leftOf(await w.app.tickets.patch(alice, id, decoded({ summary: 'mine' }), { ifMatch: precondition }));
      expect(e._tag).to.equal('PreconditionFailed');
      const now = rightOf(await w.app.tickets.get(alice, id, embed())).ticket;
      expect(now).to.include({ subject: 'sneaky', summary: '' });
    });

    it('concurrent patches all land: none is lost', async () => {
      const w = await world();
      const alice = await w.customer();
      const id = await w.ticket(alice);
      const writes = Array.from({ length: 20 }, (_, i) =>
        w.app.tickets.patch(w.admin, id, decoded({ summary: `edit ${i}` })),
      );
      const results = await Promise.all(writes);
      expect(results.every((r) => r._tag === 'Right')).to.equal(true);
      expect(rightOf(await w.app.tickets.get(alice, id, embed())).ticket.version).to.equal(21);
    });

    it('renaming a customer renames their tickets and makes the new name searchable', async () => {
      const w = await world();
      const alice = await w.customer('Alice');
      const id = await w.ticket(alice);
      rightOf(await w.app.users.patch(alice, 'me', decoded({ name: 'Alicia Keys' })));
      expect(rightOf(await w.app.tickets.get(w.admin, id, embed())).ticket.customerName).to.equal('Alicia Keys');
      expect(rightOf(await w.app.tickets.list(w.admin, ticketQuery({ q: 'keys' }))).total).to.equal(1);
    });
  });

  describe('deleting', () => {
    it('only admins delete; a deleted ticket is gone and leaves every list', async () => {
      const w = await world();
      const [alice, mallory, agent] = [await w.customer(), await w.customer(), await w.agent()];
      const id: TicketId = await w.ticket(alice);
      rightOf(await w.app.messages.create(alice, id, decoded({ body: 'hello' })));
      expect(leftOf(await w.app.tickets.delete(agent, id))._tag).to.equal('Forbidden');
      expect(leftOf(await w.app.tickets.delete(alice, id))._tag).to.equal('Forbidden');
      rightOf(await w.app.tickets.delete(w.admin, id));
      expect(leftOf(await w.app.tickets.get(alice, id, embed()))._tag).to.equal('Gone');
      expect(leftOf(await w.app.tickets.get(mallory, id, embed()))._tag, 'still no existence leak').to.equal(
        'NotFound',
      );
      expect(leftOf(await w.app.tickets.patch(w.admin, id, decoded({ subject: 'x' })))._tag).to.equal('Gone');
      expect(leftOf(await w.app.tickets.delete(w.admin, id))._tag).to.equal('Gone');
      expect(leftOf(await w.app.messages.list(alice, id, page()))._tag).to.equal('Gone');
      expect(leftOf(await w.app.messages.get(alice, id, 1 as never))._tag).to.equal('Gone');
      expect(rightOf(await w.app.tickets.list(w.admin, ticketQuery())).total).to.equal(0);
    });
  });
});
