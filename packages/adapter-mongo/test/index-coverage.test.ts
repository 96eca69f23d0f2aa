import {
  searchTerms,
  sortFields,
  ticketFilter,
  ticketOrder,
  type CustomCondition,
  type SortField,
  type SortRule,
  type TicketFilter,
  type TicketState,
  type UserId,
  type GroupId,
  type QueueQuery,
  noQueueQuery,
} from '@support/domain';
import { expect } from 'chai';
import {
  countQuery,
  levelQueries,
  matchesQuery,
  plannedQueries,
  walkIsTheOrder,
  type PlannedQuery,
  type RunKeys,
} from '../src/ticket-plan.js';
import { sortFieldPaths } from '../src/ticket-query.js';
import { queryRefusal } from './support/index-rules.js';

// The proof that no ticket search sorts in memory on the server, without a server: every
// query shape contract §5 allows (every filter combination, every complete sort: each
// sequence of distinct rules in both directions, with the id tie-breaker implicit or
// explicit in either direction), each query its plan can send (ticket-plan.ts), checked
// against the declared indexes (indexes.ts) by MongoDB's rules (support/index-rules.ts).
// Removing an index, or a plan that sends a query no index serves, fails this test; the
// real-mongod suite asks the server itself (explain) for the same queries.

const now = Date.UTC(2026, 0, 15);
const customer = 101 as UserId;

interface FilterShape {
  readonly name: string;
  readonly params: Record<string, string>;
  readonly alias: boolean;
  readonly filter: TicketFilter;
  /** Checked with every sort parameter; else with those of at most three rules (the queue shapes, many more). */
  readonly deep: boolean;
}

const u = (n: number): UserId => n as UserId;
const g = (n: number): GroupId => n as GroupId;

/** The queue filters (contract §5): each kind, lists with none, and pairs, as the HTTP edge decodes them. */
const queueShapes: readonly (readonly [string, Partial<QueueQuery>])[] = [
  ['assigned_user_id=7', { assignees: { ids: [u(7)], me: false, none: false } }],
  ['assigned_user_id=me', { assignees: { ids: [], me: true, none: false } }],
  ['assigned_user_id=none', { assignees: { ids: [], me: false, none: true } }],
  ['assigned_user_id=7,8,none', { assignees: { ids: [u(7), u(8)], me: false, none: true } }],
  ['group_id=3', { groups: { ids: [g(3)], none: false } }],
  ['group_id=3,none', { groups: { ids: [g(3)], none: true } }],
  ['customer_id=101', { customerIds: [u(101)] }],
  ['customer_id=101,102', { customerIds: [u(101), u(102)] }],
  ['priority=urgent', { priorities: ['urgent'] }],
  ['priority=high,urgent', { priorities: ['high', 'urgent'] }],
  ['tags=vip', { tags: ['vip'] }],
  ['tags=vip,billing', { tags: ['vip', 'billing'] }],
  ['updated_since', { updatedSince: now - 86_400_000 }],
  ['assigned_user_id=me&priority=urgent', { assignees: { ids: [], me: true, none: false }, priorities: ['urgent'] }],
  [
    'group_id=3&assigned_user_id=none',
    { groups: { ids: [g(3)], none: false }, assignees: { ids: [], me: false, none: true } },
  ],
  ['tags=vip&priority=urgent', { tags: ['vip'], priorities: ['urgent'] }],
  ['tags=vip&updated_since', { tags: ['vip'], updatedSince: now - 86_400_000 }],
  ['priority=urgent&updated_since', { priorities: ['urgent'], updatedSince: now - 86_400_000 }],
  ['customer_id=101&tags=vip', { customerIds: [u(101)], tags: ['vip'] }],
];

/**
 * Custom field filters (contract §10): one value, several (OR), none, a value or none, a
 * multiselect's ALL, ranges; each alone, with a word of a text field searched (q), and with
 * a queue filter.
 */
const customShapes: readonly (readonly [string, CustomCondition])[] = [
  ['cf.tier=gold', { kind: 'in', fieldId: 1, all: false, values: ['gold'], none: false }],
  ['cf.tier=gold,free', { kind: 'in', fieldId: 1, all: false, values: ['gold', 'free'], none: false }],
  ['cf.tier=none', { kind: 'in', fieldId: 1, all: false, values: [], none: true }],
  ['cf.tier=gold,none', { kind: 'in', fieldId: 1, all: false, values: ['gold'], none: true }],
  ['cf.areas=api,ui', { kind: 'in', fieldId: 2, all: true, values: ['api', 'ui'], none: false }],
  ['cf.seats.gte=3', { kind: 'range', fieldId: 3, gte: 3, lte: null }],
  ['cf.renewal.gte&lte', { kind: 'range', fieldId: 5, gte: '2026-01-01', lte: '2026-12-31' }],
];

/** Every filter the contract can produce: caller, state list, q words, recently_closed; and the queue filters. */
const filterShapes = (): FilterShape[] => {
  const out: FilterShape[] = [];
  const add = (
    alias: boolean,
    caller: UserId | null,
    state: string | undefined,
    q: string | undefined,
    queue: readonly [string, Partial<QueueQuery>] | null,
  ): void => {
    const params = {
      ...(state === undefined ? {} : { state }),
      ...(q === undefined ? {} : { q }),
      ...(queue === null ? {} : { queue: queue[0] }),
    };
    // The query the HTTP edge decodes from these parameters, made by the domain's rules.
    const query = {
      states: state === undefined ? null : (state.split(',') as TicketState[]),
      recentlyClosed: alias,
      terms: searchTerms(q ?? ''),
      sort: ticketOrder([], alias),
      embed: [],
      queue: { ...noQueueQuery, ...(queue?.[1] ?? {}) },
      custom: [],
      customKeys: [],
      page: 1,
      perPage: 30,
    };
    const name = `${alias ? 'recently_closed ' : ''}${caller === null ? 'staff' : 'customer'} ${JSON.stringify(params)}`;
    out.push({ name, params, alias, filter: ticketFilter(query, caller, now, caller ?? u(7)), deep: queue === null });
  };
  const addCustom = (
    caller: UserId | null,
    state: string | undefined,
    q: string | undefined,
    shape: (typeof customShapes)[number],
    queue: Partial<QueueQuery>,
  ): void => {
    const query = {
      states: state === undefined ? null : (state.split(',') as TicketState[]),
      recentlyClosed: false,
      terms: searchTerms(q ?? ''),
      sort: ticketOrder([], false),
      embed: [],
      queue: { ...noQueueQuery, ...queue },
      custom: [],
      customKeys: [],
      page: 1,
      perPage: 30,
    };
    const params = { state: state ?? '', q: q ?? '', custom: shape[0], queue: JSON.stringify(queue) };
    const filter = ticketFilter(query, caller, now, caller ?? u(7), { custom: [shape[1]], searchFields: [7] });
    out.push({
      name: `${caller === null ? 'staff' : 'customer'} ${JSON.stringify(params)}`,
      params,
      alias: false,
      filter,
      deep: false,
    });
  };
  for (const shape of customShapes)
    for (const caller of [null, customer])
      for (const state of [undefined, 'open'])
        for (const q of [undefined, 'printer'])
          for (const queue of [{}, { assignees: { ids: [], me: true, none: false } }])
            addCustom(caller, state, q, shape, queue);
  for (const alias of [false, true])
    for (const caller of [null, customer])
      for (const state of [undefined, 'open', 'closed', 'open,pending', 'open,pending,closed'])
        for (const q of [undefined, 'printer', 'printer café']) add(alias, caller, state, q, null);
  for (const queue of queueShapes)
    for (const caller of [null, customer])
      for (const state of [undefined, 'open', 'open,pending'])
        for (const q of [undefined, 'printer']) add(false, caller, state, q, queue);
  return out;
};

/** Every `sort` parameter: sequences of distinct non-id fields, each direction, then no id, `id` or `-id`. */
const sortParams = (): string[] => {
  const fields = sortFields.filter((f) => f !== 'id');
  const out: string[] = [];
  const extend = (prefix: string[], left: readonly string[]): void => {
    for (const id of [null, 'id', '-id']) out.push([...prefix, ...(id === null ? [] : [id])].join(','));
    for (const f of left)
      for (const item of [f, `-${f}`])
        extend(
          [...prefix, item],
          left.filter((x) => x !== f),
        );
  };
  extend([], fields);
  return out;
};

const permutations = (n: number, k: number): number => (k === 0 ? 1 : n * permutations(n - 1, k - 1));

describe('index coverage: every query of every search shape is served by a declared index, no in-memory sort', function () {
  this.timeout(120_000);
  const filters = filterShapes();
  const sorts = sortParams();
  const sortRuleCounts = sorts.map(
    (s) => s.split(',').filter((item) => item !== '' && item.replace('-', '') !== 'id').length,
  );

  it('enumerates every sort parameter of the contract: Σ P(6,k)·2^k sequences × (no id, id, -id)', () => {
    const sequences = [0, 1, 2, 3, 4, 5, 6].reduce((sum, k) => sum + permutations(6, k) * 2 ** k, 0);
    expect(sorts).to.have.length(sequences * 3);
    expect(new Set(sorts).size).to.equal(sorts.length);
  });

  for (const { name, filter } of filters) {
    it(`${name}: its count and its read of every match`, () => {
      for (const q of [countQuery(filter), matchesQuery(filter)])
        expect(queryRefusal('tickets', q.filter, q.sort, q.hint), JSON.stringify(q)).to.equal(null);
    });
  }

  it('every filter × every sort parameter: each level of tie runs sends only queries a declared index serves in order', () => {
    // A level's queries depend on the filter, on which fields the levels above fix (a run's
    // `f = value`), on its rule and on what follows the rule: each distinct level is checked
    // once, then looked up (by a small integer) for every shape that has it.
    const paths = Object.values(sortFieldPaths);
    const fields = sortFields.length;
    const restKinds = ['order', 'id-asc', 'id-desc', 'more'] as const;
    const restKind = (rules: readonly SortRule[]): number =>
      walkIsTheOrder(rules) ? 0 : rules.length === 2 ? (rules[1]!.direction === 'asc' ? 1 : 2) : 3;
    /** The levels of a complete sort, each as [fixed fields mask, field index, direction, rest kind]. */
    const levelsOf = (rules: readonly SortRule[]): number[][] => {
      const out: number[][] = [];
      let fixed = 0;
      for (let level = 0; level < rules.length; level++) {
        const here = rules.slice(level);
        const rule = here[0]!;
        out.push([
          fixed,
          sortFields.indexOf(rule.field as SortField),
          rule.direction === 'asc' ? 0 : 1,
          restKind(here),
        ]);
        if (walkIsTheOrder(here) || here.length <= 2) break;
        fixed |= 1 << sortFields.indexOf(rule.field as SortField);
      }
      return out;
    };
    const verdicts = new Int8Array(filters.length * (1 << fields) * fields * 2 * restKinds.length);
    const refusals = new Map<number, string>();
    let shapes = 0;
    let distinct = 0;
    for (const alias of [false, true]) {
      const sortLevels = sorts.map((s) => levelsOf(parseSort(s, alias)));
      for (const [fi, { filter, alias: filterAlias }] of filters.entries()) {
        if (filterAlias !== alias) continue;
        for (const [si, levels] of sortLevels.entries()) {
          if (!filters[fi]!.deep && sortRuleCounts[si]! > 3) continue;
          shapes += 1;
          for (const [fixed, field, direction, rest] of levels as [number, number, number, number][]) {
            const key = (((fi * (1 << fields) + fixed) * fields + field) * 2 + direction) * restKinds.length + rest;
            if (verdicts[key] === 0) {
              distinct += 1;
              const runs: RunKeys = Object.fromEntries(
                sortFields
                  .filter((_, i) => (fixed & (1 << i)) !== 0)
                  .map((f) => [sortFieldPaths[f], sample[sortFieldPaths[f]]]),
              );
              const rule: SortRule = { field: sortFields[field]!, direction: direction === 0 ? 'asc' : 'desc' };
              // Of what follows the rule, a level uses only whether it is more than the id and the id's direction.
              const more: SortRule[] = [
                { field: 'subject', direction: 'asc' },
                { field: 'id', direction: 'asc' },
              ];
              const next: SortRule[] =
                rest === 0 ? [] : rest === 3 ? more : [{ field: 'id', direction: rest === 1 ? 'asc' : 'desc' }];
              const refusal = firstRefusal(levelQueries(filter, runs, rule, next));
              verdicts[key] = refusal === null ? 1 : 2;
              if (refusal !== null) refusals.set(key, refusal);
            }
            if (verdicts[key] === 2)
              throw new Error(`${filters[fi]!.name} sort=${sorts[si]!}: ${refusals.get(key) ?? ''}`);
          }
        }
      }
    }
    const shallow = sortRuleCounts.filter((n) => n <= 3).length;
    expect(shapes).to.equal(
      filters.filter((f) => f.deep).length * sorts.length + filters.filter((f) => !f.deep).length * shallow,
    );
    expect(distinct).to.be.above(1000);
    expect(paths).to.have.length(fields);
  });

  it('plannedQueries lists the same queries, for a sample of shapes (it is what the real-mongod suite explains)', () => {
    for (const { filter, alias } of filters)
      for (const sort of [
        '',
        '-priority,createdAt',
        'state,-priority,subject,-id',
        'closedAt,-updatedAt,id',
        'subject,-id',
      ])
        expect(firstRefusal(plannedQueries(filter, parseSort(sort, alias))), sort).to.equal(null);
  });
});

const sample: Readonly<Record<string, unknown>> = {
  _id: 1,
  subject: 'x',
  stateRank: 0,
  priorityRank: 0,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  closedAt: null,
};

const firstRefusal = (queries: readonly PlannedQuery[]): string | null => {
  for (const q of queries) {
    const refusal = queryRefusal('tickets', q.filter, q.sort, q.hint);
    if (refusal !== null) return `${JSON.stringify(q)}: ${refusal}`;
  }
  return null;
};

/** The complete order of a `sort` parameter ('-priority,created_at'), by the domain's rules (the id tie-breaker added). */
const parseSort = (sort: string, alias: boolean): SortRule[] => {
  const rules = (sort === '' ? [] : sort.split(',')).map((item): SortRule => ({
    field: item.replace(/^-/, '') as SortField,
    direction: item.startsWith('-') ? 'desc' : 'asc',
  }));
  return [...ticketOrder(rules, alias)];
};
