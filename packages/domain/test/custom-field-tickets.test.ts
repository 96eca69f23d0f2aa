import { expect } from 'chai';
import {
  allLiveTickets,
  compareByRule,
  compareKeys,
  compareTickets,
  matchesTicket,
  sortFieldId,
  sortKey,
  ticketFieldEvent,
  ticketFilter,
  ticketOrder,
  ticketWords,
  newTicketField,
  noQueueQuery,
  systemActor,
  type CustomCondition,
  type Ticket,
  type TicketFieldId,
  type TicketFilter,
  type TicketQuery,
} from '../src/index.js';
import { aTicket, rightOf, T0, userId } from '../test-support/mothers.js';

// Custom fields in the reference semantics every store is held to (contract §10): a filter's
// conditions and the words of text fields, the sort by a field with unset values last in both
// directions, and the feed's ticket_field events.

const gold: CustomCondition = { kind: 'in', fieldId: 1, all: false, values: ['gold'], none: false };
const withFields = (id: number, customFields: Ticket['customFields'], subject = 'Printer'): Ticket =>
  aTicket({ id, subject, customFields });
const matches = (filter: TicketFilter, t: Ticket) => matchesTicket(filter, t, new Set(ticketWords(t)));

describe('custom fields in ticket lists (contract §10)', () => {
  describe('a filter', () => {
    it('the filter of every live ticket has no custom condition and searches no field', () => {
      expect(allLiveTickets).to.deep.include({ custom: [], searchFields: [] });
      const q: TicketQuery = {
        states: null,
        recentlyClosed: false,
        terms: [],
        sort: ticketOrder([], false),
        embed: [],
        queue: noQueueQuery,
        custom: [],
        customKeys: [],
        page: 1,
        perPage: 30,
      };
      expect(ticketFilter(q, null, T0)).to.deep.include({ custom: [], searchFields: [] });
      expect(ticketFilter(q, null, T0, null, { custom: [gold], searchFields: [4] })).to.deep.include({
        custom: [gold],
        searchFields: [4],
      });
      expect(
        ticketFilter({ ...q, recentlyClosed: true }, null, T0, null, { custom: [gold], searchFields: [4] }),
      ).to.deep.include({
        custom: [gold],
        searchFields: [4],
      });
    });
    it('holds every custom condition', () => {
      const filter = { ...allLiveTickets, custom: [gold] };
      expect(matches(filter, withFields(1, { 1: 'gold' }))).to.equal(true);
      expect(matches(filter, withFields(2, { 1: 'free' }))).to.equal(false);
      expect(matches(filter, withFields(3, {}))).to.equal(false);
      const seats: CustomCondition = { kind: 'range', fieldId: 2, gte: 3, lte: null };
      expect(matches({ ...allLiveTickets, custom: [gold, seats] }, withFields(4, { 1: 'gold', 2: 2 }))).to.equal(false);
      expect(matches({ ...allLiveTickets, custom: [gold, seats] }, withFields(4, { 1: 'gold', 2: 3 }))).to.equal(true);
    });
    it('without custom parts (absent) matches as with none', () => {
      const { custom: _c, searchFields: _s, ...bare } = allLiveTickets;
      expect(matches(bare, withFields(1, { 1: 'gold' }))).to.equal(true);
      expect(matches({ ...bare, words: ['broken'] }, withFields(1, { 4: 'broken' }))).to.equal(false);
    });
    it("q finds every word in the ticket's own words or the searched fields' values", () => {
      const t = withFields(1, { 4: 'Broken tray', 5: 'Paper jam', 2: 7 });
      const q = (words: string[], searchFields: number[]) => matches({ ...allLiveTickets, words, searchFields }, t);
      expect(q(['broken'], [4])).to.equal(true);
      expect(q(['printer', 'tray'], [4])).to.equal(true);
      expect(q(['broken', 'jam'], [4, 5])).to.equal(true);
      expect(q(['broken'], [])).to.equal(false);
      expect(q(['jam'], [4])).to.equal(false);
      expect(q(['broken', 'missing'], [4])).to.equal(false);
      expect(q(['printer'], [])).to.equal(true);
    });
  });

  describe('the sort', () => {
    it('by a field id; a key not resolved yet is a bug', () => {
      expect(sortFieldId('cf:3')).to.equal(3);
      expect(sortFieldId('createdAt')).to.equal(null);
      expect(() => sortFieldId('cf.tier')).to.throw(
        Error,
        "sort by cf.tier: a custom field's key is resolved before a store sorts",
      );
      expect(sortKey(withFields(1, { 3: 'x' }), 'cf:3')).to.equal('x');
      expect(sortKey(withFields(1, {}), 'cf:3')).to.equal(null);
    });
    it('keys: null first, text by code point, false before true, numbers by value; one field has one type', () => {
      expect([compareKeys(null, null), compareKeys(null, 1), compareKeys(1, null)]).to.deep.equal([0, -1, 1]);
      expect([Math.sign(compareKeys(1, 2)), Math.sign(compareKeys(2, 1)), compareKeys(2, 2)]).to.deep.equal([-1, 1, 0]);
      expect([compareKeys(false, true), compareKeys(true, false), compareKeys(true, true)]).to.deep.equal([-1, 1, 0]);
      expect(Math.sign(compareKeys('b', 'a'))).to.equal(1);
      expect(Math.sign(compareKeys('\u{1F600}', '\uFFFD'))).to.equal(1);
      expect(() => compareKeys(true, 1)).to.throw(TypeError);
      expect(() => compareKeys(1, false)).to.throw(TypeError);
    });
    it("a custom field's unset value comes last in both directions; other nulls sort first ascending", () => {
      const cf = (direction: 'asc' | 'desc') => ({ field: 'cf:1' as const, direction });
      for (const direction of ['asc', 'desc'] as const) {
        expect([compareByRule(cf(direction), null, 5), compareByRule(cf(direction), 5, null)]).to.deep.equal([1, -1]);
        expect(compareByRule(cf(direction), null, null)).to.equal(0);
      }
      expect(Math.sign(compareByRule(cf('desc'), 1, 5))).to.equal(1);
      expect(compareByRule({ field: 'closedAt', direction: 'asc' }, null, 5)).to.equal(-1);
      expect(compareByRule({ field: 'closedAt', direction: 'desc' }, null, 5)).to.equal(1);
    });
    it('lists tickets by a field, unset last, then by id', () => {
      const tickets = [withFields(1, {}), withFields(2, { 1: 5 }), withFields(3, { 1: 9 }), withFields(4, { 1: 5 })];
      const order = (direction: 'asc' | 'desc') =>
        [...tickets].sort(compareTickets(ticketOrder([{ field: 'cf:1', direction }], false))).map((t) => t.id);
      expect(order('asc')).to.deep.equal([2, 4, 3, 1]);
      expect(order('desc')).to.deep.equal([3, 4, 2, 1]);
    });
  });

  it('a definition change is an event of the feed; a deleted field carries no data', () => {
    const f = rightOf(newTicketField(5 as TicketFieldId, { key: 'tier', title: 'Tier', type: 'text' }, 0, T0));
    const admin = { type: 'user' as const, id: userId(2) };
    expect(ticketFieldEvent('created', f, T0 + 1, admin)).to.deep.equal({
      type: 'ticket_field.created',
      subject: { resource: 'ticketField', id: 5 },
      actor: admin,
      occurredAt: T0 + 1,
      data: { resource: 'ticketField', field: f },
    });
    expect(ticketFieldEvent('updated', f, T0 + 2)).to.deep.include({
      type: 'ticket_field.updated',
      actor: systemActor,
    });
    expect(ticketFieldEvent('updated', f, T0 + 2).data).to.deep.equal({ resource: 'ticketField', field: f });
    expect(ticketFieldEvent('deleted', f, T0 + 3)).to.deep.equal({
      type: 'ticket_field.deleted',
      subject: { resource: 'ticketField', id: 5 },
      actor: systemActor,
      occurredAt: T0 + 3,
      data: null,
    });
  });
});
