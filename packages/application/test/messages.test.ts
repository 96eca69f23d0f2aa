import type { MessageNumber } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, embed, leftOf, page, rightOf, world } from './support/world.js';

const n = (x: number): MessageNumber => x as MessageNumber;

describe('messages', () => {
  it('are numbered 1, 2, 3 inside each ticket and listed oldest first', async () => {
    const w = await world();
    const alice = await w.customer();
    const [t1, t2] = [await w.ticket(alice), await w.ticket(alice)];
    for (const body of ['one', 'two']) rightOf(await w.app.messages.create(alice, t1, decoded({ body })));
    const other = rightOf(await w.app.messages.create(alice, t2, decoded({ body: 'elsewhere' })));
    expect(other.number).to.equal(1);
    const list = rightOf(await w.app.messages.list(alice, t1, page()));
    expect(list.items.map((m) => [m.number, m.body])).to.deep.equal([
      [1, 'one'],
      [2, 'two'],
    ]);
    expect(list.total).to.equal(2);
  });

  it("adding a message moves the ticket's updated_at, and sets the author from the caller", async () => {
    const w = await world();
    const alice = await w.customer();
    const id = await w.ticket(alice);
    w.clock.advance(60_000);
    const m = rightOf(await w.app.messages.create(alice, id, decoded({ body: 'any news?' })));
    expect(m.authorId).to.equal(alice.user.id);
    expect(rightOf(await w.app.tickets.get(alice, id, embed())).ticket.updatedAt).to.equal(w.clock.now());
  });

  it('hides internal notes from customers: absent from lists, not found when asked for', async () => {
    const w = await world();
    const [alice, agent] = [await w.customer(), await w.agent()];
    const id = await w.ticket(alice);
    rightOf(await w.app.messages.create(agent, id, decoded({ body: 'customer is difficult', internal: true })));
    rightOf(await w.app.messages.create(agent, id, decoded({ body: 'we are on it' })));
    expect(rightOf(await w.app.messages.list(alice, id, page())).items.map((m) => m.body)).to.deep.equal([
      'we are on it',
    ]);
    expect(rightOf(await w.app.messages.list(alice, id, page())).total).to.equal(1);
    expect(leftOf(await w.app.messages.get(alice, id, n(1)))._tag).to.equal('NotFound');
    expect(leftOf(await w.app.messages.patch(alice, id, n(1), decoded({ body: 'x' })))._tag).to.equal('NotFound');
    expect(rightOf(await w.app.messages.list(agent, id, page())).total).to.equal(2);
    expect(leftOf(await w.app.messages.create(alice, id, decoded({ body: 'sneaky', internal: true })))._tag).to.equal(
      'Forbidden',
    );
  });

  it('lets a customer edit and delete only what they wrote', async () => {
    const w = await world();
    const [alice, agent] = [await w.customer(), await w.agent()];
    const id = await w.ticket(alice);
    rightOf(await w.app.messages.create(alice, id, decoded({ body: 'mine' })));
    rightOf(await w.app.messages.create(agent, id, decoded({ body: 'theirs' })));
    expect(rightOf(await w.app.messages.patch(alice, id, n(1), decoded({ body: 'mine, edited' }))).body).to.equal(
      'mine, edited',
    );
    expect(leftOf(await w.app.messages.patch(alice, id, n(2), decoded({ body: 'hacked' })))._tag).to.equal('Forbidden');
    expect(leftOf(await w.app.messages.delete(alice, id, n(2)))._tag).to.equal('Forbidden');
    expect(rightOf(await w.app.messages.replace(agent, id, n(1), decoded({ body: 'moderated' })))).to.include({
      body: 'moderated',
      internal: false,
    });
  });

  it('a deleted message is gone and leaves the list; its number is not reused', async () => {
    const w = await world();
    const alice = await w.customer();
    const id = await w.ticket(alice);
    rightOf(await w.app.messages.create(alice, id, decoded({ body: 'oops' })));
    rightOf(await w.app.messages.delete(alice, id, n(1)));
    expect(leftOf(await w.app.messages.get(alice, id, n(1)))._tag).to.equal('Gone');
    expect(leftOf(await w.app.messages.patch(alice, id, n(1), decoded({ body: 'x' })))._tag).to.equal('Gone');
    expect(rightOf(await w.app.messages.list(alice, id, page())).total).to.equal(0);
    expect(rightOf(await w.app.messages.create(alice, id, decoded({ body: 'again' }))).number).to.equal(2);
  });

  it("another customer's ticket has no messages to show", async () => {
    const w = await world();
    const [alice, mallory] = [await w.customer(), await w.customer()];
    const id = await w.ticket(alice);
    rightOf(await w.app.messages.create(alice, id, decoded({ body: 'private' })));
    expect(leftOf(await w.app.messages.list(mallory, id, page()))._tag).to.equal('NotFound');
    expect(leftOf(await w.app.messages.create(mallory, id, decoded({ body: 'hi' })))._tag).to.equal('NotFound');
  });

  it('answers a refused body with its errors, once the ticket is known to be there for the caller', async () => {
    const w = await world();
    const [alice, mallory] = [await w.customer(), await w.customer()];
    const id = await w.ticket(alice);
    const errors = [{ field: 'body', code: 'invalid_value' as const, message: 'must not be blank' }];
    expect(leftOf(await w.app.messages.create(alice, id, E.left({ errors, given: ['body'] })))).to.deep.equal({
      _tag: 'ValidationFailed',
      errors,
    });
    expect(leftOf(await w.app.messages.create(mallory, id, E.left({ errors, given: ['body'] })))._tag).to.equal(
      'NotFound',
    );
  });

  it('concurrent messages on one ticket get distinct numbers', async () => {
    const w = await world();
    const alice = await w.customer();
    const id = await w.ticket(alice);
    const made = await Promise.all(
      Array.from({ length: 25 }, (_, i) => w.app.messages.create(alice, id, decoded({ body: `m${i}` }))),
    );
    const numbers = made.map((r) => rightOf(r).number).sort((a, b) => a - b);
    expect(numbers).to.deep.equal(Array.from({ length: 25 }, (_, i) => i + 1));
  });
});
