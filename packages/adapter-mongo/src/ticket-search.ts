import type { Page } from '@support/application';
import {
  compareByRule,
  compareKeys,
  sortFieldId,
  type CompleteSort,
  type SortField,
  type SortRule,
  type Ticket,
  type TicketFilter,
} from '@support/domain';
import type { MongoContext } from './context.js';
import { fromTicketDocument, ticketProjection, type StoredTicket } from './documents.js';
import {
  countQuery,
  isCustomRule,
  matchesQuery,
  runBeforeQuery,
  runByIdQuery,
  runQuery,
  walkIsTheOrder,
  walkQuery,
  type PlannedQuery,
  type RunKeys,
} from './ticket-plan.js';
import type { SearchSettings } from './options.js';
import { pageWindow, sortFieldPaths, ticketFilterToMongo, type TicketSortPath } from './ticket-query.js';

/** The most matches whose keys the cost plan reads to sort in the adapter. */
const sortMatchesLimit = 10_000;

/** A ticket's id and sort keys (and its custom field entries): what ordering needs, a few dozen bytes. */
type Keys = { readonly _id: number; readonly cf?: readonly { k: number; v: unknown }[] } & Readonly<
  Partial<Record<TicketSortPath, unknown>>
>;
const keysProjection = { ...Object.fromEntries(Object.values(sortFieldPaths).map((p) => [p, 1])), cf: 1 };

const keyOf = (d: Keys, rule: SortRule): number | string | boolean | null => {
  const custom = sortFieldId(rule.field);
  if (custom !== null) {
    const entry = d.cf?.find((e) => e.k === custom);
    return entry === undefined ? null : (entry.v as number | string | boolean);
  }
  const v = d[sortFieldPaths[rule.field as SortField]];
  return v instanceof Date ? v.getTime() : ((v ?? null) as number | string | null);
};

/** The domain's compareTickets, on keys. */
const compareBy =
  (rules: readonly SortRule[]) =>
  (a: Keys, b: Keys): number => {
    for (const rule of rules) {
      const c = compareByRule(rule, keyOf(a, rule), keyOf(b, rule));
      if (c !== 0) return c;
    }
    return 0;
  };

/** Sorting the matches costs about m·log m; a walk about (offset + limit) × live / m index steps (the memory store's rule). */
const prefersSort = (matches: number, need: number, live: number): boolean =>
  matches * Math.log2(matches + 2) <= (2 * need * live) / Math.max(1, matches);

const everyLive = (f: TicketFilter): boolean => JSON.stringify(ticketFilterToMongo(f)) === '{"deleted":false}';

/**
 * One page of the tickets the filter selects, in the complete order of `sort`, and their
 * total, by indexed reads only (ticket-plan.ts): counted first; then, when a single walk
 * is the order, the page itself; otherwise the page's ids from walking the first rule's
 * index and ordering its tie runs, or from sorting every match's keys when they are few;
 * then the page's tickets by id.
 */
export const searchTickets = async (
  ctx: MongoContext,
  settings: SearchSettings,
  filter: TicketFilter,
  rules: CompleteSort,
  offset: number,
  limit: number,
): Promise<Page<Ticket>> => {
  const { tickets, maxTimeMS } = ctx;
  const window = pageWindow(offset, limit);
  const count = (q: PlannedQuery): Promise<number> => tickets.countDocuments(q.filter, { hint: q.hint, maxTimeMS });
  const read = async (q: PlannedQuery, skip: number, n: number): Promise<Keys[]> =>
    await tickets
      .find<Keys>(q.filter, {
        hint: q.hint,
        ...(q.sort === undefined ? {} : { sort: q.sort }),
        skip,
        limit: n,
        projection: keysProjection,
        maxTimeMS,
      })
      .toArray();

  const total = await count(countQuery(filter));
  if (window === null || window.skip >= total) return { items: [], total };
  // A custom field's order is not an index walk (a multikey index cannot give it): the matches'
  // keys, read through the filter's index, are sorted in the adapter (docs/custom-fields.md).
  const sortAll =
    rules.some(isCustomRule) || (await sortsMatches(ctx, settings, filter, total, window.skip + window.limit));

  const [first] = rules;
  if (first !== undefined && walkIsTheOrder(rules) && !sortAll) {
    const q = walkQuery(filter, {}, first);
    const docs = await tickets
      .find<StoredTicket>(q.filter, {
        hint: q.hint,
        ...(q.sort === undefined ? {} : { sort: q.sort }),
        ...window,
        projection: ticketProjection,
        maxTimeMS,
      })
      .toArray();
    return { items: docs.map(fromTicketDocument), total };
  }

  /** Items [skip, skip + n) of the run `rule = value` (under `runs`) in the order `rest`. */
  const runSlice = async (
    runs: RunKeys,
    rule: SortRule,
    value: unknown,
    rest: readonly SortRule[],
    skip: number,
    n: number,
  ): Promise<Keys[]> => {
    const [next] = rest;
    if (next !== undefined && rest.length === 1)
      return read(runByIdQuery(filter, runs, rule, value, next.direction), skip, n);
    const run = runQuery(filter, runs, rule, value);
    if ((await count(run)) <= settings.runSortLimit)
      return (await read(run, 0, 0)).sort(compareBy(rest)).slice(skip, skip + n);
    return walk({ ...runs, [sortFieldPaths[rule.field as SortField]]: value }, rest, skip, n);
  };

  /** Items [skip, skip + n) under `runs` in the order `rules`: the first rule's walk, its tie runs ordered by the rest. */
  const walk = async (runs: RunKeys, rules: readonly SortRule[], skip: number, n: number): Promise<Keys[]> => {
    const [rule, ...rest] = rules;
    if (rule === undefined) return [];
    const stretch = await read(walkQuery(filter, runs, rule), skip, n);
    if (walkIsTheOrder(rules)) return stretch;
    const out: Keys[] = [];
    const groups = tieRuns(stretch, rule);
    for (const [i, { head, members }] of groups.entries()) {
      const value = head[sortFieldPaths[rule.field as SortField]] ?? null;
      const last = i === groups.length - 1;
      // Only the first run can have started before the stretch, only the last go on after it.
      const before = i === 0 && skip > 0 ? await count(runBeforeQuery(filter, runs, rule, value, head._id)) : 0;
      const whole = before === 0 && (!last || stretch.length < n);
      out.push(
        ...(whole ? members.sort(compareBy(rest)) : await runSlice(runs, rule, value, rest, before, members.length)),
      );
    }
    return out;
  };

  const ordered = sortAll
    ? (await read(matchesQuery(filter), 0, 0)).sort(compareBy(rules)).slice(window.skip, window.skip + window.limit)
    : await walk({}, rules, window.skip, window.limit);
  return {
    items: await byIds(
      ctx,
      ordered.map((k) => k._id),
    ),
    total,
  };
};

/** Whether the cost plan reads every match's keys to sort them in the adapter (few matches, a walk that would look far). */
const sortsMatches = async (
  ctx: MongoContext,
  settings: SearchSettings,
  filter: TicketFilter,
  total: number,
  need: number,
): Promise<boolean> => {
  if (settings.plan !== 'cost') return settings.plan === 'sort-matches';
  if (everyLive(filter) || total > sortMatchesLimit) return false;
  return prefersSort(total, need, await ctx.tickets.estimatedDocumentCount({ maxTimeMS: ctx.maxTimeMS }));
};

/** Consecutive keys with equal values of the rule's field, each run with its first member. */
const tieRuns = (keys: readonly Keys[], rule: SortRule): { readonly head: Keys; readonly members: Keys[] }[] => {
  const runs: { head: Keys; members: Keys[] }[] = [];
  for (const k of keys) {
    const current = runs[runs.length - 1];
    if (current !== undefined && compareKeys(keyOf(current.head, rule), keyOf(k, rule)) === 0) current.members.push(k);
    else runs.push({ head: k, members: [k] });
  }
  return runs;
};

/** The tickets of these ids, in this order. */
const byIds = async (ctx: MongoContext, ids: readonly number[]): Promise<Ticket[]> => {
  if (ids.length === 0) return [];
  const docs = await ctx.tickets
    .find<StoredTicket>(
      { _id: { $in: [...ids] } },
      { hint: { _id: 1 }, projection: ticketProjection, maxTimeMS: ctx.maxTimeMS },
    )
    .toArray();
  const byId = new Map(docs.map((d) => [d._id, d]));
  return ids.flatMap((id) => {
    const d = byId.get(id);
    return d === undefined ? [] : [fromTicketDocument(d)];
  });
};
