import {
  completeSort,
  priorities,
  sortFields,
  ticketStates,
  tokenize,
  type CompleteSort,
  type Ticket,
  type TicketFilter,
} from '@support/domain';
import fc from 'fast-check';
import { aTicket, minutes, T0, userId } from './mothers.js';

// Random tickets and queries for the search property: small pools of words, names and
// instants, so that ties, shared words and empty results are all common.

/** Text fragments whose words match only once folded, and code-point order traps. */
const fragments = [
  'printer', 'Printer', 'PRINTER', 'fire', 'café', 'CAFE', 'naïve', 'Straße', 'STRASSE', 'ﬁle', 'file',
  '😀', 'Ω', 'zebra', 'Zebra', 'a', 'B', 'é', 'e', '\uFF21', '42', 'x-ray', 'jam', '\uFFFD',
] as const;
const names = ['Ada Lovelace', 'Émile Zola', 'Grace Hopper', 'ADA'] as const;

/** Every word a query may look for: the folded words of the pools, and one nobody has. */
export const searchableWords: readonly string[] = [...new Set([...fragments, ...names].flatMap((f) => tokenize(f))), 'xylophone'];

const text = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...fragments), { minLength: min, maxLength: max }).map((ws) => ws.join(' '));
const instant: fc.Arbitrary<number> = fc.integer({ min: 0, max: 6 }).map((n) => T0 + minutes(n));

/** A ticket's content; the run gives it an id and a customer (one of three per run). */
export interface TicketContent {
  readonly customer: number;
  readonly fields: Omit<Ticket, 'id' | 'customerId' | 'version'>;
}

export const ticketContent: fc.Arbitrary<TicketContent> = fc.record({
  customer: fc.integer({ min: 0, max: 2 }),
  fields: fc.record({
    subject: text(1, 3),
    summary: text(0, 4),
    state: fc.constantFrom(...ticketStates),
    priority: fc.constantFrom(...priorities),
    customerName: fc.constantFrom(...names),
    assignedUserId: fc.constant(null),
    groupId: fc.constant(null),
    tags: fc.array(fc.constantFrom('vip', 'billing'), { maxLength: 2 }),
    createdAt: instant,
    updatedAt: instant,
    closedAt: fc.option(instant, { freq: 2 }),
    deletedAt: fc.option(instant, { freq: 6 }),
  }),
});

export const contentToTicket = (c: TicketContent, id: number, customerBase: number, version = 1): Ticket =>
  aTicket({ ...c.fields, id, customerId: customerBase + c.customer, version });

/** A query shape: which conditions are set is random too. `customer` 3 has no tickets. */
export interface QueryShape {
  readonly states: TicketFilter['states'];
  readonly customer: number | null;
  readonly words: readonly string[];
  readonly closedSince: number | null;
  readonly sort: CompleteSort;
  readonly offset: number;
  readonly limit: number;
}

export const queryShape: fc.Arbitrary<QueryShape> = fc.record({
  states: fc.option(fc.subarray([...ticketStates]), { freq: 2 }),
  customer: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 2 }),
  words: fc.subarray([...searchableWords], { maxLength: 2 }),
  closedSince: fc.option(instant, { freq: 2 }),
  sort: fc
    .uniqueArray(fc.record({ field: fc.constantFrom(...sortFields), direction: fc.constantFrom('asc' as const, 'desc' as const) }), {
      selector: (r) => r.field,
      maxLength: 3,
    })
    .map(completeSort),
  offset: fc.oneof(fc.constant(0), fc.nat(30)),
  limit: fc.integer({ min: 1, max: 30 }),
});

export const filterOf = (q: QueryShape, customerBase: number): TicketFilter => ({
  states: q.states,
  customerId: q.customer === null ? null : userId(customerBase + q.customer),
  words: q.words,
  closedSince: q.closedSince,
});
