import type { TicketId } from '@support/domain';
import { expect } from 'chai';
import type { TicketView } from '../src/index.js';
import { decoded, embed, leftOf, page, rightOf, ticketQuery, world, fieldsOf } from './support/world.js';

describe('tickets', () => {
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
