import type { TicketId, UserId } from '@support/domain';
import { expect } from 'chai';
import { decoded, embed, leftOf, rightOf, world } from './support/world.js';

// Ticket writes' rules the role matrix's tests leave out: a customer's refusals and defaults,
// references checked only when they change, a refused transition naming where the ticket may go.

describe('ticket writes: customers, references, transitions', () => {
  it("a customer's refusals say why", async () => {
    const w = await world();
    const [alice, bob] = [await w.customer(), await w.customer()];
    const id = await w.ticket(alice);
    expect(leftOf(await w.app.tickets.patch(alice, id, decoded({ state: 'pending' })))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'customers may close or reopen a ticket, not set it to pending',
    });
    expect(leftOf(await w.app.tickets.patch(alice, id, decoded({ state: 'pending', priority: 'high' })))).to.deep.equal(
      {
        _tag: 'Forbidden',
        message: 'customers may not write the fields',
        fields: ['priority', 'state'],
      },
    );
    expect(leftOf(await w.app.tickets.patch(alice, id, decoded({ customerId: bob.user.id })))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'customers may not write the field',
      fields: ['customerId'],
    });
    expect(
      rightOf(await w.app.tickets.patch(alice, id, decoded({ customerId: alice.user.id, state: 'closed' }))).ticket
        .state,
    ).to.equal('closed');
  });

  it("a customer's PUT replaces what customers write, with its defaults, and keeps the rest", async () => {
    const w = await world();
    const alice = await w.customer();
    const agent = await w.agent();
    const id = await w.ticket(alice, { summary: 'long story', priority: 'high', assignedUserId: agent.user.id });
    rightOf(await w.app.tickets.patch(w.admin, id, decoded({ state: 'pending' })));
    const put = rightOf(await w.app.tickets.replace(alice, id, decoded({ subject: 'Short' }))).ticket;
    expect(put).to.include({
      subject: 'Short',
      summary: '',
      state: 'open',
      priority: 'high',
      assignedUserId: agent.user.id,
    });
  });

  it('checks the customer, assignee and group only when they change, and moves the ticket to another customer', async () => {
    const w = await world();
    const [alice, bob] = [await w.customer('Alice'), await w.customer('Bob')];
    const agent = await w.agent();
    const id = await w.ticket(alice, { assignedUserId: agent.user.id });
    const moved = rightOf(await w.app.tickets.patch(w.admin, id, decoded({ customerId: bob.user.id }))).ticket;
    expect(moved).to.include({ customerId: bob.user.id, customerName: 'Bob' });
    const codes = (e: { _tag: string }): unknown =>
      (e as { errors?: { field: string; code: string }[] }).errors?.map((f) => [f.field, f.code]);
    expect(
      codes(
        leftOf(
          await w.app.tickets.patch(
            w.admin,
            id,
            decoded({ customerId: 997 as UserId, assignedUserId: 999 as UserId, groupId: 998 as never }),
          ),
        ),
      ),
    ).to.deep.equal([
      ['customerId', 'unknown_reference'],
      ['assignedUserId', 'unknown_reference'],
      ['groupId', 'unknown_reference'],
    ]);
    let lookups = 0;
    const users = w.ports.users;
    const findById = users.findById.bind(users);
    users.findById = (uid) => {
      lookups += 1;
      return findById(uid);
    };
    rightOf(
      await w.app.tickets.patch(
        w.admin,
        id,
        decoded({ customerId: bob.user.id, assignedUserId: agent.user.id, subject: 'Same people' }),
      ),
    );
    expect(lookups, 'the same customer and assignee: no lookup').to.equal(0);
  });

  it('a refused transition names where the ticket may go, for this caller; other field errors come with it', async () => {
    const w = await world();
    const alice = await w.customer();
    const id = await w.ticket(alice);
    rightOf(await w.app.tickets.patch(w.admin, id, decoded({ state: 'closed' })));
    const e = leftOf(
      await w.app.tickets.patch(w.admin, id, decoded({ state: 'pending', assignedUserId: 999 as UserId })),
    );
    expect(e._tag).to.equal('ValidationFailed');
    const errors = (e as unknown as { errors: { field: string; code: string; allowed?: string[] }[] }).errors;
    expect(errors.map((f) => [f.field, f.code])).to.deep.equal([
      ['assignedUserId', 'unknown_reference'],
      ['state', 'invalid_transition'],
    ]);
    expect(errors[1]?.allowed).to.deep.equal(rightOf(await w.app.tickets.get(w.admin, id, embed())).allowedTransitions);
    expect(leftOf(await w.app.tickets.delete(await w.agent(), id))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'agents may not delete tickets',
    });
    expect(rightOf(await w.app.tickets.delete(w.admin, id)).ticket.deletedAt).to.equal(w.clock.now());
    expect(leftOf(await w.app.tickets.get(w.admin, 999 as TicketId, embed()))._tag).to.equal('NotFound');
  });
});
