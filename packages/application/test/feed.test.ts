import type { UserId } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, leftOf, rightOf, world } from './support/world.js';

// The change feed's use case (events/feed.ts): who may read it, its pages and cursor, and its
// waits (whose change ends one, what ends one early).

const never = new AbortController().signal;
/** A page of the feed after `after`, answered at once unless waitSeconds is given. */
const feedPage = (after = 0, perPage = 100, waitSeconds = 0) => E.right({ after, perPage, waitSeconds });
/** A read that waits up to waitSeconds for news (of one actor's changes, when given). */
const feedWait = (after: number, waitSeconds = 0, actorId?: UserId) =>
  E.right({ after, perPage: 100, waitSeconds, ...(actorId === undefined ? {} : { actorId }) });

describe('use case: the change feed', () => {
  it('is for agents and admins; pages by after and names the next cursor', async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    const agent = await w.agent();
    expect(leftOf(await w.app.events.list(ada, feedPage(), never))._tag).to.equal('Forbidden');
    const all = rightOf(await w.app.events.list(agent, feedPage(), never));
    expect(all.items.map((e) => e.seq)).to.deep.equal(all.items.map((_, i) => i + 1));
    const part = rightOf(await w.app.events.list(agent, feedPage(1, 1), never));
    expect(part.items.map((e) => e.seq)).to.deep.equal([2]);
    expect(part.next).to.equal(2);
    const empty = rightOf(await w.app.events.list(agent, feedPage(all.next), never));
    expect(empty).to.deep.equal({ items: [], next: all.next, fields: [] });
  });

  it('waits for the next event when asked, and not longer than asked', async () => {
    const w = await world();
    const head = (await w.ports.events.bounds()).newest;
    const started = Date.now();
    const waiting = w.app.events.list(w.admin, feedPage(head, 100, 5), never);
    setTimeout(() => void w.app.groups.create(w.admin, decoded({ name: 'Arrives' })), 50);
    const got = rightOf(await waiting);
    expect(Date.now() - started).to.be.below(2000);
    expect(got.items.map((e) => e.type)).to.deep.equal(['group.created']);
    const stopping = new AbortController();
    setTimeout(() => {
      stopping.abort();
    }, 50);
    const cut = Date.now();
    expect(rightOf(await w.app.events.list(w.admin, feedPage(head + 1, 100, 30), stopping.signal)).items).to.deep.equal(
      [],
    );
    expect(Date.now() - cut).to.be.below(2000);
  });

  it('refuses a cursor older than what is kept, naming the oldest kept seq', async () => {
    const w = await world();
    await w.ticket(await w.customer());
    w.clock.advance(31 * 86_400_000);
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Recent' })));
    await w.app.events.forgetOld();
    const { oldest, newest } = await w.ports.events.bounds();
    expect(oldest).to.equal(newest);
    expect(leftOf(await w.app.events.list(w.admin, feedPage(0), never))).to.deep.equal({ _tag: 'FeedExpired', oldest });
    expect(rightOf(await w.app.events.list(w.admin, feedPage(newest - 1), never)).items).to.have.length(1);
  });
});

describe('the change feed: waiting', () => {
  it("waiting for one actor's changes, another's change does not end the wait", async () => {
    const w = await world();
    const agent = await w.agent();
    const head = (await w.ports.events.bounds()).newest;
    const waiting = w.app.events.list(w.admin, feedWait(head, 5, agent.user.id), never);
    await new Promise((r) => setTimeout(r, 20));
    rightOf(await w.app.groups.create(w.admin, decoded({ name: "The admin's" })));
    await new Promise((r) => setTimeout(r, 20));
    rightOf(await w.app.users.patch(agent, 'me', decoded({ name: 'Renamed by themself' })));
    const got = rightOf(await waiting);
    expect(got.items.map((e) => (e.actor.type === 'user' ? e.actor.id : null))).to.deep.equal([agent.user.id]);
    expect(got.next).to.equal(head + 2);
  });

  it('answers at once without a wait, when the server stops, or when there is news; a cursor past the end waits from the head', async () => {
    const w = await world();
    const head = (await w.ports.events.bounds()).newest;
    expect(rightOf(await w.app.events.list(w.admin, feedWait(head, 0), never))).to.deep.equal({
      items: [],
      next: head,
      fields: [],
    });
    const stopped = new AbortController();
    stopped.abort();
    const started = Date.now();
    expect(rightOf(await w.app.events.list(w.admin, feedWait(head, 30), stopped.signal)).items).to.deep.equal([]);
    expect(Date.now() - started).to.be.below(1000);
    expect(rightOf(await w.app.events.list(w.admin, feedWait(0, 30), never)).items.length).to.be.greaterThan(0);
    const ahead = w.app.events.list(w.admin, feedWait(head + 5, 5), never);
    await new Promise((r) => setTimeout(r, 20));
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'News' })));
    expect(rightOf(await ahead).items, 'news at head + 1 is not after head + 5').to.deep.equal([]);
  });

  it('forgets what is older than the retention, and keeps what is not', async () => {
    const w = await world();
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Old' })));
    const { newest } = await w.ports.events.bounds();
    w.clock.advance(30 * 86_400_000 - 1);
    await w.app.events.forgetOld();
    expect((await w.ports.events.bounds()).oldest, 'a day short of 30: kept').to.equal(1);
    w.clock.advance(2);
    await w.app.events.forgetOld();
    expect((await w.ports.events.bounds()).oldest).to.equal(null);
    expect(leftOf(await w.app.events.list(w.admin, feedWait(newest - 1), never))).to.deep.equal({
      _tag: 'FeedExpired',
      oldest: newest + 1,
    });
  });
});
