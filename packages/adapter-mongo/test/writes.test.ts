import { leaveGroup, renameCustomer, ticketWords, unassignTicket, ungroupTicket, type Ticket } from '@support/domain';
import { expect } from 'chai';
import type { Collection } from 'mongodb';
import { increment } from '../src/counters.js';
import {
  toTicketDocument,
  toTokenDocument,
  toUserDocument,
  type CounterDocument,
  type RateLimitDocument,
  type TicketDocument,
} from '../src/documents.js';
import {
  clearGroupFilter,
  clearGroupUpdate,
  consumeToken,
  liveTokenFilter,
  rateLimitHit,
  removeGroupFromUsersFilter,
  removeGroupFromUsersUpdate,
  renameCustomerUpdate,
  saveToken,
  sequenceIncrement,
  unassignUserFilter,
  unassignUserUpdate,
  versionedFilter,
} from '../src/writes.js';
import { aTicket, aToken, aUser, at } from './support/builders.js';
import { mingoEngine } from './support/mingo-engine.js';

// Each write document of writes.ts executed by the independent engine (mingo, every document
// through BSON) on stored documents, and the result compared with what the domain says the
// write does: not a restatement of the documents, a run of them. (The port contract suites
// run all of them again through the repositories: engine-contract.test.ts.)

const now = at + 5_000;
const stored = (
  engine: ReturnType<typeof mingoEngine>,
  key: 'tickets' | 'users' | 'tokens' | 'rateLimits' | 'counters',
) => engine.collection(key).docs;

describe('writes, executed by the independent engine against the domain', () => {
  const withTickets = async (tickets: readonly Ticket[]) => {
    const engine = mingoEngine();
    for (const t of tickets) await engine.collection('tickets').insertOne(toTicketDocument(t));
    return engine;
  };
  const ticketsAfter = (engine: ReturnType<typeof mingoEngine>) =>
    new Map((stored(engine, 'tickets') as TicketDocument[]).map((d) => [d._id, d]));

  it("renaming a customer: the domain's renameCustomer on each of their tickets (words rebuilt, updatedAt forward, version), nobody else's", async () => {
    const theirs = [
      aTicket({ id: 1 as never }),
      aTicket({ id: 2 as never, updatedAt: now + 60_000, version: 4, summary: 'Ada asked twice' }),
    ];
    const other = aTicket({ id: 3 as never, customerId: 11 as never });
    const engine = await withTickets([...theirs, other]);
    await engine.collection('tickets').updateMany({ customerId: 10 }, renameCustomerUpdate('Émile Zola', now));
    const after = ticketsAfter(engine);
    for (const t of theirs) {
      const expected = renameCustomer(t, 'Émile Zola', now);
      expect(after.get(t.id)).to.deep.equal({ ...toTicketDocument(expected), words: after.get(t.id)?.words });
      expect(new Set(after.get(t.id)?.words)).to.deep.equal(new Set(ticketWords(expected)));
    }
    expect(after.get(other.id)).to.deep.equal(toTicketDocument(other));
  });

  it("unassigning a user and clearing a group: the domain's unassignTicket and ungroupTicket, only on the tickets that had them", async () => {
    const a = aTicket({ id: 1 as never, assignedUserId: 7 as never, groupId: 3 as never });
    const b = aTicket({
      id: 2 as never,
      assignedUserId: 8 as never,
      groupId: 3 as never,
      updatedAt: now + 1,
      version: 3,
    });
    const engine = await withTickets([a, b]);
    await engine.collection('tickets').updateMany(unassignUserFilter(7), unassignUserUpdate(now));
    let after = ticketsAfter(engine);
    expect(after.get(1)).to.deep.equal(toTicketDocument(unassignTicket(a, now)));
    expect(after.get(2)).to.deep.equal(toTicketDocument(b));
    await engine.collection('tickets').updateMany(clearGroupFilter(3), clearGroupUpdate(now));
    after = ticketsAfter(engine);
    expect(after.get(1)).to.deep.equal(toTicketDocument(ungroupTicket(unassignTicket(a, now), now)));
    expect(after.get(2)).to.deep.equal(toTicketDocument(ungroupTicket(b, now)), 'updatedAt never goes back');
  });

  it("removing a group from users: as the domain's leaveGroup (the group goes, updatedAt forward, version up); other users unchanged", async () => {
    const engine = mingoEngine();
    const member = aUser({ id: 1 as never, email: 'a@x.io' as never, groupIds: [3 as never, 4 as never] });
    const other = aUser({ id: 2 as never, email: 'b@x.io' as never, groupIds: [4 as never] });
    for (const u of [member, other]) await engine.collection('users').insertOne(toUserDocument(u));
    await engine.collection('users').updateMany(removeGroupFromUsersFilter(3), removeGroupFromUsersUpdate(3, now));
    expect(stored(engine, 'users')).to.deep.equal([
      toUserDocument(leaveGroup(member, 3 as never, now)),
      toUserDocument(other),
    ]);
    // updatedAt never goes back: a user changed after `now` keeps their later time.
    await engine.collection('users').updateMany(removeGroupFromUsersFilter(4), removeGroupFromUsersUpdate(4, at));
    expect(stored(engine, 'users').map((d) => (d['updatedAt'] as Date).getTime())).to.deep.equal([
      now,
      Math.max(at, other.updatedAt),
    ]);
  });

  it('a versioned replace lands on the expected version only', async () => {
    const t = aTicket({ version: 2 });
    const engine = await withTickets([t]);
    const stale = await engine
      .collection('tickets')
      .replaceOne(versionedFilter({ _id: 1 }, 1), toTicketDocument({ ...t, subject: 'stale', version: 2 }));
    const fresh = await engine
      .collection('tickets')
      .replaceOne(versionedFilter({ _id: 1 }, 2), toTicketDocument({ ...t, subject: 'fresh', version: 3 }));
    expect([stale.matchedCount, fresh.matchedCount]).to.deep.equal([0, 1]);
    expect(ticketsAfter(engine).get(1)?.subject).to.equal('fresh');
  });

  it('a sequence counts 1, 2, 3 from nothing (the counter inserted at 1, then incremented)', async () => {
    const engine = mingoEngine();
    const counters = engine.collection('counters') as unknown as Collection<CounterDocument>;
    const next = async () => (await increment(counters, sequenceIncrement('message:7'), 1_000)).seq;
    expect([await next(), await next(), await next()]).to.deep.equal([1, 2, 3]);
  });

  it('a rate-limit counter counts per key and window and is kept one window past the end of its window', async () => {
    const engine = mingoEngine();
    const rateLimits = engine.collection('rateLimits') as unknown as Collection<RateLimitDocument>;
    const hit = async (key: string, windowStart: number) =>
      (await increment(rateLimits, rateLimitHit(key, windowStart, 60_000), 1_000)).count;
    expect([
      await hit('u:1', at),
      await hit('u:1', at),
      await hit('u:2', at),
      await hit('u:1', at + 60_000),
    ]).to.deep.equal([1, 2, 1, 1]);
    expect(stored(engine, 'rateLimits').find((d) => d['_id'] === `${at}:u:1`)).to.deep.equal({
      _id: `${at}:u:1`,
      count: 2,
      expiresAt: new Date(at + 120_000),
    });
  });

  it('tokens: saved once (a second save changes nothing), live until expiry and first use, consumed once', async () => {
    const engine = mingoEngine();
    const tokens = engine.collection('tokens');
    const record = aToken();
    const save = saveToken(toTokenDocument(record));
    await tokens.updateOne(save.filter, save.update, save.options);
    const consume = consumeToken(record.hash, at);
    expect((await tokens.findOneAndUpdate(consume.filter, consume.update, consume.options))?.['used']).to.equal(false);
    await tokens.updateOne(save.filter, save.update, save.options);
    const [kept] = stored(engine, 'tokens');
    expect(stored(engine, 'tokens')).to.have.length(1);
    expect(kept).to.deep.include({ ...toTokenDocument(record), used: true });
    expect(kept?.['savedAt'], 'the time the server stored it').to.be.instanceOf(Date);
    expect(
      (await tokens.findOneAndUpdate(consume.filter, consume.update, consume.options))?.['used'],
      'a replay',
    ).to.equal(true);
    expect(await tokens.findOne(liveTokenFilter(record.hash, at)), 'used').to.equal(null);
    const fresh = aToken({ hash: 'b'.repeat(64) });
    const saveFresh = saveToken(toTokenDocument(fresh));
    await tokens.updateOne(saveFresh.filter, saveFresh.update, saveFresh.options);
    expect(await tokens.findOne(liveTokenFilter(fresh.hash, fresh.expiresAt - 1))).to.not.equal(null);
    expect(await tokens.findOne(liveTokenFilter(fresh.hash, fresh.expiresAt)), 'expired').to.equal(null);
    const late = consumeToken(fresh.hash, fresh.expiresAt);
    expect(
      await tokens.findOneAndUpdate(late.filter, late.update, late.options),
      'expired: nothing to consume',
    ).to.equal(null);
  });
});
