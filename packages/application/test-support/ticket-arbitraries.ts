import {
  completeSort,
  priorities,
  sortFields,
  ticketStates,
  tokenize,
  type CompleteSort,
  type StoredTicket,
  type Ticket,
  type LinkCondition,
  type QueueConditions,
  type TicketFilter,
} from '@support/domain';
import fc from 'fast-check';
import { aTicket, groupId, minutes, T0, userId } from './mothers.js';

// Random tickets and queries for the search property: small pools of words, names and
// instants, so that ties, shared words and empty results are all common.

/** Text fragments whose words match only once folded, and code-point order traps. */
const fragments = [
  'printer',
  'Printer',
  'PRINTER',
  'fire',
  'café',
  'CAFE',
  'naïve',
  'Straße',
  'STRASSE',
  'ﬁle',
  'file',
  '😀',
  'Ω',
  'zebra',
  'Zebra',
  'a',
  'B',
  'é',
  'e',
  '\uFF21',
  '42',
  'x-ray',
  'jam',
  '\uFFFD',
] as const;
const names = ['Ada Lovelace', 'Émile Zola', 'Grace Hopper', 'ADA'] as const;

/** Every word a query may look for: the folded words of the pools, and one nobody has. */
export const searchableWords: readonly string[] = [
  ...new Set([...fragments, ...names].flatMap((f) => tokenize(f))),
  'xylophone',
];

const text = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...fragments), { minLength: min, maxLength: max }).map((ws) => ws.join(' '));
const instant: fc.Arbitrary<number> = fc.integer({ min: 0, max: 6 }).map((n) => T0 + minutes(n));

/** Assignees, groups and tags from small pools (one id nobody has), so queues overlap. */
const assigneePool = [501, 502, 503].map(userId);
const groupPool = [1, 2, 3].map(groupId);
const tagPool = ['vip', 'billing', 'Billing', 'bug'] as const;

/** A link condition over a pool: some of its ids (and one unused), with or without "none". */
const linkCondition = <Id extends number>(pool: readonly Id[], unused: Id): fc.Arbitrary<LinkCondition<Id> | null> =>
  fc.option(fc.record({ ids: fc.subarray([...pool, unused]), none: fc.boolean() }), { freq: 2 });

/**
 * A ticket's content; the run gives it an id and a customer (one of three per run). A field
 * added since the first format takes its default (aTicket) unless a generator is added here.
 */
export interface TicketContent {
  readonly customer: number;
  readonly fields: Omit<StoredTicket, 'id' | 'customerId' | 'version'>;
}

export const ticketContent: fc.Arbitrary<TicketContent> = fc.record({
  customer: fc.integer({ min: 0, max: 2 }),
  fields: fc.record({
    subject: text(1, 3),
    summary: text(0, 4),
    state: fc.constantFrom(...ticketStates),
    priority: fc.constantFrom(...priorities),
    customerName: fc.constantFrom(...names),
    assignedUserId: fc.option(fc.constantFrom(...assigneePool), { freq: 3 }),
    groupId: fc.option(fc.constantFrom(...groupPool), { freq: 3 }),
    tags: fc.uniqueArray(fc.constantFrom(...tagPool), { maxLength: 3 }),
    createdAt: instant,
    updatedAt: instant,
    closedAt: fc.option(instant, { freq: 2 }),
    deletedAt: fc.option(instant, { freq: 6 }),
    customFields: fc.constant({}),
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
  /** Customers by their number in the run (3 has no tickets). */
  readonly customers: readonly number[] | null;
  readonly queue: Omit<QueueConditions, 'customerIds'>;
  readonly sort: CompleteSort;
  readonly offset: number;
  readonly limit: number;
}

export const queryShape: fc.Arbitrary<QueryShape> = fc.record({
  states: fc.option(fc.subarray([...ticketStates]), { freq: 2 }),
  customer: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 2 }),
  words: fc.subarray([...searchableWords], { maxLength: 2 }),
  closedSince: fc.option(instant, { freq: 2 }),
  customers: fc.option(fc.subarray([0, 1, 2, 3]), { freq: 3 }),
  queue: fc.record({
    assignees: linkCondition(assigneePool, userId(599)),
    groups: linkCondition(groupPool, groupId(99)),
    priorities: fc.option(fc.subarray([...priorities]), { freq: 2 }),
    tags: fc.subarray([...tagPool, 'nobody'], { maxLength: 2 }),
    updatedSince: fc.option(instant, { freq: 2 }),
  }),
  sort: fc
    .uniqueArray(
      fc.record({ field: fc.constantFrom(...sortFields), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
      {
        selector: (r) => r.field,
        maxLength: 3,
      },
    )
    .map(completeSort),
  offset: fc.oneof(fc.constant(0), fc.nat(30)),
  limit: fc.integer({ min: 1, max: 30 }),
});

export const filterOf = (q: QueryShape, customerBase: number): TicketFilter => ({
  states: q.states,
  customerId: q.customer === null ? null : userId(customerBase + q.customer),
  words: q.words,
  closedSince: q.closedSince,
  customerIds: q.customers === null ? null : q.customers.map((c) => userId(customerBase + c)),
  custom: [],
  searchFields: [],
  ...q.queue,
});
