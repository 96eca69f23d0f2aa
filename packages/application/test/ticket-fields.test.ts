import type { TicketFieldCreateInput, TicketFieldDefinition, TicketFieldId } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, leftOf, page, rightOf, world, type World } from './support/world.js';

// Custom field definitions (contract §10) as the use cases serve them: admins define them,
// agents read all, customers only the customer_visible ones (another is 404 to them); a key is
// unique, at most 100 are defined, and a change that removes an option a ticket holds is a
// conflict naming how many.

const tier: TicketFieldCreateInput = {
  key: 'tier',
  title: 'Tier',
  type: 'dropdown',
  options: [
    { value: 'free', title: 'Free' },
    { value: 'gold', title: 'Gold' },
    { value: 'pro', title: 'Pro' },
  ],
  customerVisible: true,
  customerEditable: true,
};
const define = async (w: World, input: TicketFieldCreateInput): Promise<TicketFieldDefinition> =>
  rightOf(await w.app.ticketFields.create(w.admin, decoded(input)));

describe('use case: ticket fields (contract §10)', () => {
  it('admins define them, each after the last; an agent or a customer may not', async () => {
    const w = await world();
    const first = await define(w, tier);
    const second = await define(w, { key: 'seats', title: 'Seats', type: 'integer' });
    expect([first.position, second.position]).to.deep.equal([0, 1]);
    expect(second.id).to.not.equal(first.id);
    expect(first.createdAt).to.equal(w.clock.now());
    const third = await define(w, { key: 'late', title: 'Late', type: 'checkbox', position: 7 });
    expect(third.position).to.equal(7);
    expect((await define(w, { key: 'later', title: 'Later', type: 'date' })).position).to.equal(8);
    for (const who of [await w.agent(), await w.customer()])
      expect(leftOf(await w.app.ticketFields.create(who, decoded({ ...tier, key: 'other' })))).to.deep.include({
        _tag: 'Forbidden',
      });
    expect(leftOf(await w.app.ticketFields.create(await w.agent(), decoded(tier)))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'agents may not define ticket fields',
    });
    expect((await w.app.ticketFields.described()).map((d) => d.key)).to.deep.equal(['tier', 'seats', 'late', 'later']);
  });

  it('a key is unique; at most 100 are defined; an incoherent one is refused with its field errors', async () => {
    const w = await world();
    await define(w, tier);
    expect(leftOf(await w.app.ticketFields.create(w.admin, decoded({ ...tier, title: 'Again' })))).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: [{ field: 'key', code: 'not_unique', message: 'a ticket field with key "tier" exists' }],
    });
    expect(
      leftOf(await w.app.ticketFields.create(w.admin, decoded({ key: 'plan', title: 'Plan', type: 'dropdown' }))),
    ).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: [{ field: 'options', code: 'required', message: 'a dropdown field needs at least one option' }],
    });
    for (let i = 1; i < 100; i++) await define(w, { key: `f${String(i)}`, title: 'F', type: 'text' });
    expect(
      leftOf(await w.app.ticketFields.create(w.admin, decoded({ key: 'f100', title: 'F', type: 'text' }))),
    ).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: [
        { field: 'key', code: 'invalid_value', message: 'at most 100 ticket fields may be defined; delete one first' },
      ],
    });
    // A body the edge refused is answered after the role check, with the edge's errors.
    const refused = { errors: [{ field: 'title', code: 'required' as const, message: 'is required' }], given: ['key'] };
    expect(leftOf(await w.app.ticketFields.create(w.admin, E.left(refused)))).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: refused.errors,
    });
    expect(leftOf(await w.app.ticketFields.create(await w.agent(), E.left(refused)))._tag).to.equal('Forbidden');
  });

  it('agents read every field; customers only the customer_visible ones', async () => {
    const w = await world();
    const visible = await define(w, tier);
    const hidden = await define(w, { key: 'seats', title: 'Seats', type: 'integer' });
    const agent = await w.agent();
    const customer = await w.customer();
    expect(rightOf(await w.app.ticketFields.list(agent, page())).items.map((d) => d.key)).to.deep.equal([
      'tier',
      'seats',
    ]);
    const theirs = rightOf(await w.app.ticketFields.list(customer, page()));
    expect({ keys: theirs.items.map((d) => d.key), total: theirs.total }).to.deep.equal({ keys: ['tier'], total: 1 });
    expect(rightOf(await w.app.ticketFields.get(customer, visible.id))).to.deep.equal(visible);
    expect(leftOf(await w.app.ticketFields.get(customer, hidden.id))).to.deep.equal({
      _tag: 'NotFound',
      resource: 'ticketField',
      id: String(hidden.id),
    });
    expect(rightOf(await w.app.ticketFields.get(agent, hidden.id))).to.deep.equal(hidden);
    expect(leftOf(await w.app.ticketFields.get(agent, 999 as TicketFieldId))._tag).to.equal('NotFound');
  });

  it('lists in pages', async () => {
    const w = await world();
    for (const key of ['a', 'b', 'c']) await define(w, { key, title: key.toUpperCase(), type: 'text' });
    const second = rightOf(await w.app.ticketFields.list(w.admin, page(2, 2)));
    expect({ keys: second.items.map((d) => d.key), total: second.total, page: second.page }).to.deep.equal({
      keys: ['c'],
      total: 3,
      page: { page: 2, perPage: 2 },
    });
  });

  it('a change: admins only, a new version; an unchanged body writes nothing', async () => {
    const w = await world();
    const f = await define(w, tier);
    w.clock.advance(1000);
    const changed = rightOf(await w.app.ticketFields.patch(w.admin, f.id, decoded({ title: 'Plan' })));
    expect(changed).to.deep.include({ title: 'Plan', version: 2, updatedAt: f.updatedAt + 1000 });
    expect(rightOf(await w.app.ticketFields.get(w.admin, f.id))).to.deep.equal(changed);
    expect(rightOf(await w.app.ticketFields.patch(w.admin, f.id, decoded({ title: 'Plan' })))).to.deep.equal(changed);
    expect(leftOf(await w.app.ticketFields.patch(await w.agent(), f.id, decoded({ title: 'X' })))._tag).to.equal(
      'Forbidden',
    );
    expect(leftOf(await w.app.ticketFields.patch(w.admin, f.id, decoded({ type: 'text' })))).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: [{ field: 'type', code: 'read_only', message: 'cannot change: the field stays a dropdown field' }],
    });
    expect(
      leftOf(
        await w.app.ticketFields.patch(w.admin, f.id, decoded({ title: 'Y' }), { ifMatch: (d) => d.version === 1 }),
      ),
    ).to.deep.equal({ _tag: 'PreconditionFailed' });
  });

  it('removing an option a ticket holds is a conflict naming how many hold which; otherwise it is removed', async () => {
    const w = await world();
    const f = await define(w, tier);
    const ada = await w.customer('Ada');
    const only = (...values: string[]) =>
      decoded({ options: (tier.options ?? []).filter((o) => values.includes(o.value)) });
    await w.ticket(ada, { customFields: { tier: 'gold' } });
    expect(leftOf(await w.app.ticketFields.patch(w.admin, f.id, only('free', 'pro')))).to.deep.equal({
      _tag: 'Conflict',
      message: '1 ticket holds the option "gold": change it first',
    });
    await w.ticket(ada, { customFields: { tier: 'pro' } });
    expect(leftOf(await w.app.ticketFields.patch(w.admin, f.id, only('free')))).to.deep.equal({
      _tag: 'Conflict',
      message: '2 tickets hold the options "gold", "pro": change them first',
    });
    const fewer = rightOf(await w.app.ticketFields.patch(w.admin, f.id, only('gold', 'pro')));
    expect(fewer.options.map((o) => o.value)).to.deep.equal(['gold', 'pro']);
  });

  it('delete: admins only; then it is gone', async () => {
    const w = await world();
    const f = await define(w, tier);
    expect(leftOf(await w.app.ticketFields.delete(await w.agent(), f.id))._tag).to.equal('Forbidden');
    expect(rightOf(await w.app.ticketFields.delete(w.admin, f.id))).to.deep.equal(f);
    expect(leftOf(await w.app.ticketFields.get(w.admin, f.id))._tag).to.equal('NotFound');
    expect(leftOf(await w.app.ticketFields.delete(w.admin, f.id))._tag).to.equal('NotFound');
    expect((await w.ports.events.bounds()).newest).to.be.greaterThan(0);
  });
});
