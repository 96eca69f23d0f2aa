import type { EventType } from '@support/domain';
import { expect } from 'chai';
import { decoded, leftOf, page, rightOf, world, type World } from './support/world.js';

const hook = async (w: World, events: readonly (EventType | '*')[] = ['*'], url = 'https://hooks.example.com/in') =>
  rightOf(await w.app.webhooks.create(w.admin, decoded({ url, events })));

describe('use case: webhooks', () => {
  it('are for admins only; a new one gets a whsec_ secret and starts at the head of the feed', async () => {
    const w = await world();
    const agent = await w.agent();
    await w.ticket(await w.customer());
    expect(
      leftOf(await w.app.webhooks.create(agent, decoded({ url: 'https://x.example.com', events: ['*'] })))._tag,
    ).to.equal('Forbidden');
    expect(leftOf(await w.app.webhooks.list(agent, page()))._tag).to.equal('Forbidden');
    const h = await hook(w);
    expect(h.secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    const { newest } = await w.ports.events.bounds();
    expect(newest).to.be.greaterThan(0);
    expect(h.lastDeliveredSeq).to.equal(newest);
    expect(await w.app.webhooks.deliverDue()).to.equal(0);
  });

  it('refuses a receiver the sender refuses (the SSRF guard), with its reason', async () => {
    const w = await world();
    const e = leftOf(await w.app.webhooks.create(w.admin, decoded({ url: 'http://127.0.0.1/in', events: ['*'] })));
    expect(e._tag === 'ValidationFailed' && e.errors).to.deep.equal([
      { field: 'url', code: 'invalid_value', message: 'the URL must be https' },
    ]);
    const h = await hook(w);
    expect(leftOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ url: 'http://10.0.0.1/' })))._tag).to.equal(
      'ValidationFailed',
    );
  });

  it('delivers each subscribed event once, in seq order, with a delivery id stable per event and webhook', async () => {
    const w = await world();
    const h = await hook(w, ['ticket.created', 'ticket.updated']);
    const ada = await w.customer('Ada');
    const t = await w.ticket(ada);
    rightOf(await w.app.tickets.patch(w.admin, t, decoded({ priority: 'high' })));
    while ((await w.app.webhooks.deliverDue()) > 0);
    expect(w.sender.sent.map((s) => s.event.type)).to.deep.equal(['ticket.created', 'ticket.updated']);
    const seqs = w.sender.sent.map((s) => s.event.seq);
    expect(seqs[1]).to.be.greaterThan(seqs[0] ?? Infinity);
    expect(w.sender.sent.map((s) => s.deliveryId)).to.deep.equal(
      seqs.map((seq) => `msg_${String(h.id)}_${String(seq)}`),
    );
    // The user.created of Ada was not subscribed: skipped, and the cursor is at the head.
    const after = rightOf(await w.app.webhooks.get(w.admin, h.id));
    expect(after.lastDeliveredSeq).to.equal((await w.ports.events.bounds()).newest);
    expect(await w.app.webhooks.deliverDue()).to.equal(0);
  });

  it('retries a failed delivery on the schedule, later events waiting behind it, then switches the webhook off', async () => {
    const w = await world();
    const h = await hook(w);
    w.sender.answer = () => 500;
    const g = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Billing' })));
    rightOf(await w.app.groups.patch(w.admin, g.id, decoded({ description: 'second event' })));
    const round = async (): Promise<number> => w.app.webhooks.deliverDue();
    expect(await round()).to.equal(1);
    expect(await round()).to.equal(0);
    const schedule = [5, 30, 120, 600, 3600, 21600];
    for (const delay of schedule) {
      w.clock.advance(delay * 1000 - 1);
      expect(await round(), `before the ${String(delay)} s retry`).to.equal(0);
      w.clock.advance(1);
      expect(await round(), `the ${String(delay)} s retry`).to.equal(1);
    }
    // 7 attempts, all at the first event with the same delivery id; the second event never tried.
    expect(w.sender.sent).to.have.length(7);
    expect(new Set(w.sender.sent.map((s) => s.deliveryId)).size).to.equal(1);
    const off = rightOf(await w.app.webhooks.get(w.admin, h.id));
    expect(off.active).to.equal(false);
    const log = rightOf(await w.app.webhooks.deliveries(w.admin, h.id, page()));
    expect(log.items.map((r) => r.attempt)).to.deep.equal([7, 6, 5, 4, 3, 2, 1]);
    expect(log.items[0]).to.include({ status: 500, nextAttemptAt: null, error: 'the receiver answered 500' });
    expect(log.items[1]?.nextAttemptAt).to.equal(
      log.items[1]?.attemptedAt !== undefined ? log.items[1].attemptedAt + 21600 * 1000 : -1,
    );
    // Switched back on, it resumes at the same event with a fresh schedule, and moves on once it succeeds.
    w.sender.answer = () => 204;
    rightOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ active: true })));
    while ((await round()) > 0);
    expect(w.sender.sent.slice(7).map((s) => s.event.type)).to.deep.equal(['group.created', 'group.updated']);
  });

  it('replays from a seq: the subscribed events after it are sent again, and the webhook is on again', async () => {
    const w = await world();
    const start = (await w.ports.events.bounds()).newest;
    const h = await hook(w, ['group.created']);
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'One' })));
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Two' })));
    while ((await w.app.webhooks.deliverDue()) > 0);
    expect(w.sender.sent).to.have.length(2);
    rightOf(await w.app.webhooks.replay(w.admin, h.id, decoded({ after: start })));
    while ((await w.app.webhooks.deliverDue()) > 0);
    expect(w.sender.sent.map((s) => s.deliveryId)).to.deep.equal([
      ...w.sender.sent.slice(0, 2).map((s) => s.deliveryId),
      ...w.sender.sent.slice(0, 2).map((s) => s.deliveryId),
    ]);
    const e = leftOf(await w.app.webhooks.replay(w.admin, h.id, decoded({ after: 10_000 })));
    expect(e._tag === 'ValidationFailed' && e.errors[0]?.field).to.equal('after');
  });

  it('rotates the secret: later deliveries are signed with the new one', async () => {
    const w = await world();
    const h = await hook(w);
    const rotated = rightOf(await w.app.webhooks.rotateSecret(w.admin, h.id));
    expect(rotated.secret).to.match(/^whsec_/);
    expect(rotated.secret).not.to.equal(h.secret);
    expect(rotated.version).to.equal(h.version + 1);
  });

  it('keeps a delivery in flight and an admin change apart: the admin change stays, the cursor moves', async () => {
    const w = await world();
    const h = await hook(w);
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Racing' })));
    w.sender.answer = () => 204;
    const original = w.sender.send.bind(w.sender);
    w.sender.send = async (...args) => {
      // While the receiver answers, an admin renames the webhook's description.
      rightOf(await w.app.webhooks.patch(w.admin, h.id, decoded({ description: 'changed meanwhile' })));
      return original(...args);
    };
    expect(await w.app.webhooks.deliverDue()).to.equal(1);
    const after = rightOf(await w.app.webhooks.get(w.admin, h.id));
    expect(after.description).to.equal('changed meanwhile');
    expect(after.lastDeliveredSeq).to.equal((await w.ports.events.bounds()).newest);
  });

  it('lets one process deliver to a webhook at a time (the lease)', async () => {
    const w = await world();
    const h = await hook(w);
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Leased' })));
    expect(await w.ports.webhooks.lease(h.id, 'another process', w.clock.now(), w.clock.now() + 30_000)).to.equal(true);
    expect(await w.app.webhooks.deliverDue()).to.equal(0);
    w.clock.advance(30_000);
    expect(await w.app.webhooks.deliverDue()).to.equal(1);
  });
});
