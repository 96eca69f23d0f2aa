import { noQueueConditions, ticketUpgrades } from '@support/domain';
import type { TicketId, UserId } from '@support/domain';
import { expect } from 'chai';
import {
  fromGroupDocument,
  fromMessageDocument,
  fromTicketDocument,
  fromTokenDocument,
  fromUserDocument,
  messageProjection,
  ticketProjection,
  toGroupDocument,
  toMessageDocument,
  toTicketDocument,
  toTokenDocument,
  toUserDocument,
} from '../src/documents.js';
import { countQuery, runBeforeQuery, runByIdQuery, walkQuery } from '../src/ticket-plan.js';
import { pageWindow, ticketFilterToMongo } from '../src/ticket-query.js';
import { aGroup, aMessage, aTicket, aToken, aUser, at } from './support/builders.js';

// The exact filter and sort documents the adapter sends for each query shape, and the stored
// layout of each record. What the writes do is executed, not restated: writes.test.ts.

const noFilter = { ...noQueueConditions, states: null, customerId: null, words: [], closedSince: null } as const;

describe('translation: ticket filters', () => {
  it('always excludes deleted tickets, and adds nothing for unset parts', () => {
    expect(ticketFilterToMongo(noFilter)).to.deep.equal({ deleted: false });
  });
  it('a state list is $in, an empty one included (it matches nothing, as in the domain)', () => {
    expect(ticketFilterToMongo({ ...noFilter, states: ['open', 'pending'] })).to.deep.equal({
      deleted: false,
      state: { $in: ['open', 'pending'] },
    });
    expect(ticketFilterToMongo({ ...noFilter, states: [] })).to.deep.equal({ deleted: false, state: { $in: [] } });
  });
  it('a customer is an equality on customerId', () => {
    expect(ticketFilterToMongo({ ...noFilter, customerId: 7 as UserId })).to.deep.equal({
      deleted: false,
      customerId: 7,
    });
  });
  it('search words are $all on the multikey words field; no words, no clause ($all: [] would match nothing)', () => {
    expect(ticketFilterToMongo({ ...noFilter, words: ['cafe', 'printer'] })).to.deep.equal({
      deleted: false,
      words: { $all: ['cafe', 'printer'] },
    });
  });
  it('recently_closed is a $gte on the closedAt Date', () => {
    expect(ticketFilterToMongo({ ...noFilter, states: ['closed'], closedSince: at })).to.deep.equal({
      deleted: false,
      state: { $in: ['closed'] },
      closedAt: { $gte: new Date(at) },
    });
  });
  it('every part at once', () => {
    expect(
      ticketFilterToMongo({
        ...noQueueConditions,
        states: ['closed'],
        customerId: 7 as UserId,
        words: ['x'],
        closedSince: at,
      }),
    ).to.deep.equal({
      deleted: false,
      state: { $in: ['closed'] },
      customerId: 7,
      words: { $all: ['x'] },
      closedAt: { $gte: new Date(at) },
    });
  });
});

describe('translation: ticket search plan', () => {
  const sortPaths = [
    ['id', '_id'],
    ['subject', 'subject'],
    ['state', 'stateRank'],
    ['priority', 'priorityRank'],
    ['createdAt', 'createdAt'],
    ['updatedAt', 'updatedAt'],
    ['closedAt', 'closedAt'],
  ] as const;
  for (const [field, path] of sortPaths) {
    it(`${field} walks ${path} with the _id tie-breaker in the same direction, through the index of the filter's family`, () => {
      const desc = walkQuery(noFilter, {}, { field, direction: 'desc' });
      expect(desc).to.deep.equal({
        filter: { deleted: false },
        hint: `tickets_live_${field === 'id' ? 'id' : path}`,
        sort: field === 'id' ? { _id: -1 } : { [path]: -1, _id: -1 },
      });
      expect(walkQuery({ ...noFilter, customerId: 7 as UserId }, {}, { field, direction: 'asc' }).hint).to.equal(
        `tickets_customer_${field === 'id' ? 'id' : path}`,
      );
      expect(walkQuery({ ...noFilter, states: ['open'] }, {}, { field, direction: 'asc' }).hint).to.equal(
        `tickets_state_${field === 'id' ? 'id' : path}`,
      );
    });
  }
  it('a search walks the words index in created_at order, a customer their own index; other orders walk the sort index with the words as a filter', () => {
    const words = { ...noFilter, words: ['printer'] };
    expect(walkQuery(words, {}, { field: 'createdAt', direction: 'desc' })).to.deep.include({
      hint: 'tickets_words',
      sort: { createdAt: -1, _id: -1 },
    });
    expect(
      walkQuery({ ...words, customerId: 7 as UserId }, {}, { field: 'createdAt', direction: 'desc' }).hint,
    ).to.equal('tickets_customer_createdAt');
    expect(walkQuery(words, {}, { field: 'priority', direction: 'desc' }).hint).to.equal('tickets_live_priorityRank');
    expect(countQuery(words)).to.deep.equal({
      filter: { deleted: false, words: { $all: ['printer'] } },
      hint: 'tickets_words',
    });
  });
  it('a tie run adds `field = value` to the filter on the same index, and reads by _id in either direction', () => {
    const rule = { field: 'priority', direction: 'desc' } as const;
    expect(runByIdQuery(noFilter, {}, rule, 3, 'asc')).to.deep.equal({
      filter: { deleted: false, priorityRank: 3 },
      hint: 'tickets_live_priorityRank',
      sort: { _id: 1 },
    });
    expect(runBeforeQuery(noFilter, { stateRank: 0 }, rule, 3, 40)).to.deep.equal({
      filter: { deleted: false, stateRank: 0, priorityRank: 3, _id: { $gt: 40 } },
      hint: 'tickets_live_priorityRank',
    });
  });
  it('a page is skip/limit; a limit of 0 reads nothing (MongoDB would read everything)', () => {
    expect(pageWindow(60, 30)).to.deep.equal({ skip: 60, limit: 30 });
    expect(pageWindow(0, 0)).to.equal(null);
  });
});

describe('translation: documents', () => {
  it('a ticket: ranks for state and priority, Dates for times, the deleted flag, the search words', () => {
    const t = aTicket({
      id: 5 as TicketId,
      subject: 'Café au lait',
      summary: 'Crème BRÛLÉE, café',
      state: 'closed',
      priority: 'urgent',
      customerName: 'Zoë Ångström',
      assignedUserId: 12 as UserId,
      tags: ['a', 'b'],
      closedAt: at + 5,
      deletedAt: at + 6,
      version: 4,
    });
    // Fields added since the first format are translated as upgradeTicket reads them back (documents-upgrade.test.ts).
    const added = new Set(Object.keys(ticketUpgrades));
    const doc = Object.fromEntries(Object.entries(toTicketDocument(t)).filter(([k]) => !added.has(k)));
    expect(doc).to.deep.equal({
      _id: 5,
      subject: 'Café au lait',
      summary: 'Crème BRÛLÉE, café',
      state: 'closed',
      stateRank: 2,
      priority: 'urgent',
      priorityRank: 3,
      customerId: 10,
      customerName: 'Zoë Ångström',
      assignedUserId: 12,
      groupId: null,
      tags: ['a', 'b'],
      createdAt: new Date(at),
      updatedAt: new Date(at),
      closedAt: new Date(at + 5),
      deletedAt: new Date(at + 6),
      deleted: true,
      version: 4,
      words: ['cafe', 'au', 'lait', 'creme', 'brulee', 'zoe', 'angstrom'],
      textWords: ['cafe', 'au', 'lait', 'creme', 'brulee'],
      cf: [],
    });
  });
  it('custom field values: kept as they are, and as {k, v} entries (a multiselect: one per option), text words as <id>:<word>', () => {
    const t = aTicket({ id: 6 as TicketId, customFields: { 3: 'gold', 4: ['api', 'ui'], 7: 'Printer fire', 8: 12 } });
    const d = toTicketDocument(t, new Set([7]));
    expect(d.customFields).to.deep.equal(t.customFields);
    expect(d.cf).to.deep.equal([
      { k: 3, v: 'gold' },
      { k: 4, v: 'api' },
      { k: 4, v: 'ui' },
      { k: 7, v: 'Printer fire' },
      { k: 8, v: 12 },
    ]);
    expect(d.words).to.include.members(['7:printer', '7:fire']);
    expect(d.textWords).to.include.members(['7:printer', '7:fire']);
    const { words: _w, textWords: _t, cf: _c, ...stored } = d;
    expect(fromTicketDocument(stored)).to.deep.equal(t);
  });
  it('a ticket is read back without its search words, exactly as it was', () => {
    for (const t of [
      aTicket(),
      aTicket({ state: 'closed', closedAt: at + 1, deletedAt: at + 2, groupId: 3 as never, tags: ['x'] }),
    ]) {
      const { words: _w, textWords: _t, cf: _c, ...stored } = toTicketDocument(t);
      expect(fromTicketDocument(stored)).to.deep.equal(t);
    }
    expect(ticketProjection).to.deep.equal({ words: 0, textWords: 0, cf: 0 });
  });
  it('a message keyed by (ticketId, number), read without its ObjectId', () => {
    const m = aMessage({ internal: true, deletedAt: at + 1 });
    expect(toMessageDocument(m)).to.deep.equal({
      ticketId: 1,
      number: 1,
      body: 'Hello',
      authorId: 10,
      internal: true,
      attachments: [],
      createdAt: new Date(at),
      updatedAt: new Date(at),
      deletedAt: new Date(at + 1),
      version: 1,
    });
    expect(fromMessageDocument(toMessageDocument(m))).to.deep.equal(m);
    const { attachments: _, ...older } = toMessageDocument(m);
    expect(fromMessageDocument(older), 'a message stored before attachments existed').to.deep.equal(m);
    expect(messageProjection).to.deep.equal({ _id: 0 });
  });
  it('a user carries the lower-cased e-mail its unique index is on', () => {
    const u = aUser({ groupIds: [3 as never] });
    expect(toUserDocument(u)).to.include({ _id: 10, email: 'Ada@Example.com', emailKey: 'ada@example.com' });
    expect(fromUserDocument(toUserDocument(u))).to.deep.equal(u);
  });
  it('a group carries the lower-cased name its unique index is on', () => {
    const g = aGroup({ name: 'Tier ONE' });
    expect(toGroupDocument(g)).to.include({ _id: 3, name: 'Tier ONE', nameKey: 'tier one' });
    expect(fromGroupDocument(toGroupDocument(g))).to.deep.equal(g);
  });
  it('a token is keyed by its hash, expires at a Date (TTL), starts unused', () => {
    const r = aToken();
    expect(toTokenDocument(r)).to.deep.equal({
      _id: r.hash,
      kind: 'refresh',
      userId: 10,
      familyId: 'family-1',
      expiresAt: new Date(r.expiresAt),
      used: false,
    });
    expect(fromTokenDocument(toTokenDocument(r))).to.deep.equal(r);
  });
});
