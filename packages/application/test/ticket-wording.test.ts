import type { GroupId, TicketId, UserId } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, embed, leftOf, rightOf, ticketQuery, world } from './support/world.js';

// A ticket's refusals word for word: which ticket is missing or gone, which reference is
// wrong and why; and what a list answers about its page.

describe('ticket refusals, word for word', () => {
  it("names the ticket that is not there, or gone, or another customer's", async () => {
    const w = await world();
    const [alice, bob] = [await w.customer(), await w.customer()];
    const id = await w.ticket(alice);
    expect(leftOf(await w.app.tickets.get(bob, id, embed()))).to.deep.equal({
      _tag: 'NotFound',
      resource: 'ticket',
      id: String(id),
    });
    expect(leftOf(await w.app.tickets.get(w.admin, 999 as TicketId, embed()))).to.deep.equal({
      _tag: 'NotFound',
      resource: 'ticket',
      id: '999',
    });
    rightOf(await w.app.tickets.delete(w.admin, id));
    expect(leftOf(await w.app.tickets.get(w.admin, id, embed()))).to.deep.equal({
      _tag: 'Gone',
      resource: 'ticket',
      id: String(id),
    });
    expect(
      leftOf(
        await w.app.tickets.get(
          w.admin,
          id,
          E.left([{ parameter: 'embed', code: 'invalid_value', message: 'x' }] as never),
        ),
      )._tag,
      'the query first',
    ).to.equal('InvalidQuery');
  });

  it('says what is wrong with each reference, and that staff must name the customer', async () => {
    const w = await world();
    const alice = await w.customer();
    const errors = (r: E.Either<unknown, unknown>): unknown =>
      E.isLeft(r) ? (r.left as { errors?: unknown }).errors : null;
    expect(
      errors(
        await w.app.tickets.create(
          w.admin,
          decoded({ subject: 'S', assignedUserId: alice.user.id, groupId: 7 as GroupId } as never),
        ),
      ),
    ).to.deep.equal([
      { field: 'customerId', code: 'required', message: 'is required when an agent or admin creates a ticket' },
      {
        field: 'assignedUserId',
        code: 'unknown_reference',
        message: `user ${String(alice.user.id)} is a customer; tickets are assigned to agents or admins`,
      },
      { field: 'groupId', code: 'unknown_reference', message: 'there is no group 7' },
    ]);
    expect(
      errors(
        await w.app.tickets.create(
          w.admin,
          decoded({ subject: 'S', customerId: 998 as UserId, assignedUserId: 999 as UserId } as never),
        ),
      ),
    ).to.deep.equal([
      { field: 'customerId', code: 'unknown_reference', message: 'there is no user 998' },
      { field: 'assignedUserId', code: 'unknown_reference', message: 'there is no user 999' },
    ]);
    const made = rightOf(
      await w.app.tickets.create(
        w.admin,
        decoded({ subject: 'S', customerId: alice.user.id, assignedUserId: null, groupId: null } as never),
      ),
    );
    expect(made.ticket).to.include({ assignedUserId: null, groupId: null, customerId: alice.user.id });
    expect(
      rightOf(await w.app.tickets.patch(w.admin, made.ticket.id, decoded({ assignedUserId: null, groupId: null })))
        .ticket.version,
      'null for null: no change',
    ).to.equal(made.ticket.version);
  });

  it('a list says its page and total', async () => {
    const w = await world();
    const alice = await w.customer();
    for (let i = 0; i < 3; i++) await w.ticket(alice);
    const list = rightOf(await w.app.tickets.list(w.admin, ticketQuery({ page: 2, perPage: 2 })));
    expect([list.total, list.page, list.items.length]).to.deep.equal([3, { page: 2, perPage: 2 }, 1]);
  });
});
