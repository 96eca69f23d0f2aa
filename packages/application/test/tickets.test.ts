import { allLiveTickets, noQueueConditions } from '@support/domain';
import type { GroupId, UserId } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor, TicketView } from '../src/index.js';
import { sortOf } from '../test-support/index.js';
import { decoded, embed, leftOf, rightOf, ticketQuery, world, fieldsOf } from './support/world.js';

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
      expect((await w.ports.tickets.search({ ...allLiveTickets }, sortOf('id'), 0, 10)).total).to.equal(0);
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

    it("a refused body still reports its custom_fields' errors: every bad field at once (contract §10)", async () => {
      const w = await world();
      for (const field of [
        { key: 'seats', title: 'Seats', type: 'integer' as const },
        { key: 'product', title: 'Product', type: 'text' as const, required: true },
      ])
        rightOf(await w.app.ticketFields.create(w.admin, decoded(field)));
      const [alice, agent] = [await w.customer(), await w.agent()];
      const errors = [{ field: 'subject', code: 'invalid_length' as const, message: 'too short' }];
      const refused = (given: string[], accepted: Record<string, unknown>) => E.left({ errors, given, accepted });
      const named = ['subject', 'customerId', 'customFields'];
      const custom = { customFields: { seats: 'ten', nope: 1, product: 'p' } };
      expect(fieldsOf(leftOf(await w.app.tickets.create(agent, refused(named, custom))))).to.deep.equal([
        ['subject', 'invalid_length'],
        ['customFields.seats', 'invalid_type'],
        ['customFields.nope', 'unknown_field'],
      ]);
      expect(
        fieldsOf(leftOf(await w.app.tickets.create(agent, refused(['subject', 'customerId'], {})))),
        'a required field left out',
      ).to.deep.equal([
        ['subject', 'invalid_length'],
        ['customFields.product', 'required'],
      ]);
      expect(
        fieldsOf(leftOf(await w.app.tickets.create(agent, refused(named, {})))),
        "custom_fields itself refused: its error is the edge's",
      ).to.deep.equal([['subject', 'invalid_length']]);
      const id = await w.ticket(alice);
      const bad = { customFields: { seats: 1.5, product: 'p' } };
      for (const write of ['replace', 'patch'] as const)
        expect(
          fieldsOf(leftOf(await w.app.tickets[write](agent, id, refused(['subject', 'customFields'], bad)))),
          write,
        ).to.deep.equal([
          ['subject', 'invalid_length'],
          ['customFields.seats', 'invalid_value'],
        ]);
      expect(
        fieldsOf(leftOf(await w.app.tickets.patch(agent, id, refused(['subject'], {})))),
        'left out of a patch: nothing to add',
      ).to.deep.equal([['subject', 'invalid_length']]);
      expect(
        fieldsOf(leftOf(await w.app.tickets.patch(agent, 999999 as never, refused(named, bad)))),
        "a ticket that cannot be read: the body's own errors",
      ).to.deep.equal([['subject', 'invalid_length']]);
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
});
