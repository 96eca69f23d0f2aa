import type { GroupId, WebhookId } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, leftOf, page, rightOf, world, type World } from './support/world.js';

// The writes of webhooks and groups beyond their role matrix: what counts as a change, what
// a body leaves as it was, and the refusals of the store (a name taken, a resource gone).

const codes = (e: { readonly _tag: string }): [string, string][] =>
  e._tag === 'ValidationFailed'
    ? (e as unknown as { errors: { field: string; code: string }[] }).errors.map((f) => [f.field, f.code])
    : [];

const badPage = E.left([{ parameter: 'page', code: 'invalid_value', message: 'x' }] as never);

const aWebhook = async (w: World, body: Record<string, unknown> = {}) =>
  rightOf(
    await w.app.webhooks.create(
      w.admin,
      decoded({ url: 'https://hooks.example.com/in', events: ['ticket.created', 'ticket.updated'], ...body } as never),
    ),
  );

describe('webhook writes', () => {
  it('a PATCH with what the webhook already has changes nothing; each field changes it', async () => {
    const w = await world();
    const h = await aWebhook(w);
    expect(h.description).to.equal('');
    expect(h.active).to.equal(true);
    const same = rightOf(
      await w.app.webhooks.patch(
        w.admin,
        h.id,
        decoded({ url: h.url, events: [...h.events], description: '', active: true }),
      ),
    );
    expect(same.version).to.equal(h.version);
    const reordered = rightOf(
      await w.app.webhooks.patch(w.admin, h.id, decoded({ events: ['ticket.updated', 'ticket.created'] })),
    );
    expect(reordered.version, 'another order is another list').to.equal(h.version + 1);
    const fewer = rightOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ events: ['ticket.updated'] })));
    expect(fewer.events).to.deep.equal(['ticket.updated']);
    const moved = rightOf(
      await w.app.webhooks.patch(w.admin, h.id, decoded({ url: 'https://elsewhere.example.com/hook' })),
    );
    expect(moved).to.include({ url: 'https://elsewhere.example.com/hook', version: fewer.version + 1 });
    expect(moved.events, 'what the body leaves out stays').to.deep.equal(['ticket.updated']);
    const described = rightOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ description: 'CRM' })));
    expect(described.description).to.equal('CRM');
    expect(
      rightOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ url: 'https://third.example.com/' }))).description,
    ).to.equal('CRM');
    expect(rightOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ description: null }))).description).to.equal('');
    expect(rightOf(await w.app.webhooks.get(w.admin, h.id)).version).to.equal(described.version + 2);
  });

  it('switched back on, the webhook gets a fresh retry schedule; switched off, it keeps its own', async () => {
    const w = await world();
    const h = await aWebhook(w, { description: 'described' });
    expect(h.description).to.equal('described');
    const stored = rightOf(await w.app.webhooks.get(w.admin, h.id));
    expect(
      await w.ports.webhooks.update(
        { ...stored, failedAttempts: 3, nextAttemptAt: 123, version: stored.version + 1 },
        stored.version,
      ),
    ).to.equal('ok');
    const off = rightOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ active: false })));
    expect(off).to.include({ active: false, failedAttempts: 3, nextAttemptAt: 123 });
    const on = rightOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ active: true })));
    expect(on).to.include({ active: true, failedAttempts: 0, nextAttemptAt: null });
  });

  it('deletes once: then it is gone; lists page; a replay past the feed is refused', async () => {
    const w = await world();
    const [a, b] = [await aWebhook(w), await aWebhook(w)];
    const list = rightOf(await w.app.webhooks.list(w.admin, page(1, 1)));
    expect(list.total).to.equal(2);
    expect(list.items.map((x) => x.id)).to.deep.equal([a.id]);
    expect(list.page).to.deep.equal({ page: 1, perPage: 1 });
    expect(leftOf(await w.app.webhooks.list(w.admin, badPage))._tag).to.equal('InvalidQuery');
    expect(rightOf(await w.app.webhooks.delete(w.admin, b.id)).id).to.equal(b.id);
    expect(leftOf(await w.app.webhooks.get(w.admin, b.id))._tag).to.equal('NotFound');
    expect(leftOf(await w.app.webhooks.delete(w.admin, b.id))._tag).to.equal('NotFound');
    expect(leftOf(await w.app.webhooks.delete(w.admin, 999 as WebhookId))._tag).to.equal('NotFound');
    const agent = await w.agent();
    expect(leftOf(await w.app.webhooks.delete(agent, a.id))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'agents may not manage webhooks',
    });
    expect(leftOf(await w.app.webhooks.list(agent, page()))._tag).to.equal('Forbidden');
    const { newest } = await w.ports.events.bounds();
    expect(codes(leftOf(await w.app.webhooks.replay(w.admin, a.id, decoded({ after: newest + 1 }))))).to.deep.equal([
      ['after', 'invalid_value'],
    ]);
    expect(rightOf(await w.app.webhooks.replay(w.admin, a.id, decoded({ after: newest }))).lastDeliveredSeq).to.equal(
      newest,
    );
    expect(leftOf(await w.app.webhooks.replay(agent, a.id, decoded({ after: 0 })))._tag).to.equal('Forbidden');
    expect(leftOf(await w.app.webhooks.replay(w.admin, a.id, E.left({ errors: [], given: null })))._tag).to.equal(
      'ValidationFailed',
    );
    expect(leftOf(await w.app.webhooks.deliveries(w.admin, a.id, badPage))._tag).to.equal('InvalidQuery');
    expect(leftOf(await w.app.webhooks.deliveries(w.admin, b.id, page()))._tag).to.equal('NotFound');
  });
});

describe('group writes', () => {
  it('a name another group has is refused on create and on a change; a PATCH keeps what it leaves out', async () => {
    const w = await world();
    const one = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'One', description: 'first' })));
    const two = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Two' })));
    expect(two.description).to.equal('');
    expect(codes(leftOf(await w.app.groups.create(w.admin, decoded({ name: 'One' }))))).to.deep.equal([
      ['name', 'not_unique'],
    ]);
    expect(codes(leftOf(await w.app.groups.patch(w.admin, two.id, decoded({ name: 'One' }))))).to.deep.equal([
      ['name', 'not_unique'],
    ]);
    expect(rightOf(await w.app.groups.patch(w.admin, one.id, decoded({ description: 'still first' })))).to.include({
      name: 'One',
      description: 'still first',
    });
    expect(rightOf(await w.app.groups.patch(w.admin, one.id, decoded({ name: 'Uno' })))).to.include({
      name: 'Uno',
      description: 'still first',
    });
    expect(rightOf(await w.app.groups.patch(w.admin, one.id, decoded({ description: null }))).description).to.equal('');
    const replaced = rightOf(
      await w.app.groups.replace(w.admin, two.id, decoded({ name: 'Deux', description: 'second' })),
    );
    expect(replaced).to.include({ name: 'Deux', description: 'second', version: two.version + 1 });
    expect(
      rightOf(await w.app.groups.replace(w.admin, two.id, decoded({ name: 'Deux' }))).description,
      'PUT: what is left out is the default',
    ).to.equal('');
    const same = rightOf(await w.app.groups.replace(w.admin, two.id, decoded({ name: 'Deux' })));
    expect(same.version, 'the same group is no change').to.equal(replaced.version + 1);
  });

  it('refuses each at its turn: the role, the page, the group, the body', async () => {
    const w = await world();
    const [agent, customer] = [await w.agent(), await w.customer()];
    const g = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'G' })));
    expect(leftOf(await w.app.groups.list(customer, badPage))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'customers may not read groups',
    });
    expect(leftOf(await w.app.groups.list(agent, badPage))._tag).to.equal('InvalidQuery');
    const listed = rightOf(await w.app.groups.list(agent, page(1, 1)));
    expect(listed).to.deep.include({ total: 1, page: { page: 1, perPage: 1 } });
    expect(leftOf(await w.app.groups.members(customer, g.id, page()))._tag).to.equal('Forbidden');
    expect(leftOf(await w.app.groups.members(agent, g.id, badPage))._tag).to.equal('InvalidQuery');
    expect(leftOf(await w.app.groups.members(agent, 999 as GroupId, page()))._tag).to.equal('NotFound');
    expect(rightOf(await w.app.groups.members(agent, g.id, page())).page).to.deep.equal({ page: 1, perPage: 30 });
    expect(leftOf(await w.app.groups.patch(agent, g.id, decoded({ name: 'H' })))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'agents may not change groups',
    });
    expect(
      leftOf(await w.app.groups.create(agent, E.left({ errors: [], given: null })))._tag,
      'the role before the body',
    ).to.equal('Forbidden');
    expect(leftOf(await w.app.groups.create(w.admin, E.left({ errors: [], given: null })))._tag).to.equal(
      'ValidationFailed',
    );
    expect(leftOf(await w.app.groups.get(w.admin, 999 as GroupId))).to.deep.include({ _tag: 'NotFound' });
    expect(rightOf(await w.app.groups.delete(w.admin, g.id)).id).to.equal(g.id);
    expect(leftOf(await w.app.groups.delete(w.admin, g.id))._tag).to.equal('NotFound');
  });
});
