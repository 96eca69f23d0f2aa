import type { DecodedQuery, TicketReadQuery } from '@support/application';
import {
  customFieldLimits,
  searchTerms,
  sortFields,
  ticketOrder,
  ticketStates,
  type CustomFilterParam,
  type QueryIssue,
  type SortField,
  type SortRule,
  type TicketQuery,
  type TicketState,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { RepresentationOptions } from '../representations/fields.js';
import { parsePage } from './page.js';
import { commaList, issue, param, type QueryParams } from './query-params.js';
import { parseQueue } from './queue-params.js';
import { customKey, parseRepresentationOptions, relationsOf } from './representation-query.js';
import { ticketNames } from '../resources/tickets.js';

/** The saved search, by path (/v1/tickets/recently_closed) or as the whole of `q`. */
export const recentlyClosedAlias = 'recently_closed';

const isSortField = (s: string | undefined): s is SortField =>
  s !== undefined && (sortFields as readonly string[]).includes(s);
/** The sort fields by the API's names, for messages. */
const sortable = sortFields.map(ticketNames.toWire).join(', ');
const isState = (s: string): s is TicketState => (ticketStates as readonly string[]).includes(s);

const parseStates = (params: QueryParams, issues: QueryIssue[]): TicketState[] | null => {
  const raw = param(params, 'state');
  if (raw === undefined) return null;
  const out: TicketState[] = [];
  for (const s of commaList('state', raw, issues)) {
    if (!isState(s)) issues.push(issue('state', s, `unknown state "${s}"; states are: ${ticketStates.join(', ')}`));
    else if (!out.includes(s)) out.push(s);
  }
  return out;
};

/** The rules `sort` asks for, "-" meaning descending; none when it is absent. */
const parseSort = (params: QueryParams, issues: QueryIssue[]): SortRule[] => {
  const raw = param(params, 'sort');
  if (raw === undefined) return [];
  const rules: SortRule[] = [];
  const items = commaList('sort', raw, issues);
  for (const [i, item] of items.entries()) {
    // An item given twice is named by commaList already.
    if (items.indexOf(item) < i) continue;
    const descending = item.startsWith('-');
    const name = descending || item.startsWith('+') ? item.slice(1) : item;
    const key = customKey(name);
    const field = ticketNames.toDomain(name);
    if (key !== null) {
      const custom = `cf.${key}` as const;
      if (rules.some((r) => r.field === custom)) issues.push(issue('sort', item, `sorts by "${name}" more than once`));
      else rules.push({ field: custom, direction: descending ? 'desc' : 'asc' });
    } else if (!isSortField(field)) {
      issues.push(
        issue('sort', item, `cannot sort by "${name}"; sortable fields are: ${sortable}, cf.<key> (a ticket field)`),
      );
    } else if (rules.some((r) => r.field === field)) {
      issues.push(issue('sort', item, `sorts by "${name}" more than once`));
    } else rules.push({ field, direction: descending ? 'desc' : 'asc' });
  }
  return rules;
};

/**
 * The custom field filters: `cf.<key>` (values), `cf.<key>.gte` and `cf.<key>.lte` (bounds). Which
 * keys exist and what their values may be is the use case's to check against the definitions.
 */
const parseCustomFilters = (params: QueryParams, issues: QueryIssue[]): CustomFilterParam[] => {
  const out: CustomFilterParam[] = [];
  for (const parameter of Object.keys(params)) {
    if (!parameter.startsWith('cf.')) continue;
    const op = parameter.endsWith('.gte') ? 'gte' : parameter.endsWith('.lte') ? 'lte' : 'eq';
    const name = op === 'eq' ? parameter : parameter.slice(0, -4);
    const key = customKey(name);
    const value = param(params, parameter) ?? '';
    if (key === null) {
      issues.push(
        issue(
          parameter,
          parameter,
          `"${parameter}" is no custom field filter: cf.<key>, cf.<key>.gte or cf.<key>.lte, key ${customFieldLimits.key.min}-${customFieldLimits.key.max} characters [a-z][a-z0-9_]*`,
        ),
      );
    } else if (value === '') issues.push(issue(parameter, value, `${parameter} is empty: omit it or name a value`));
    else out.push({ parameter, key, op, value });
  }
  return out;
};

/** A ticket list request: the query for the use case, and what the answer should show. */
export interface TicketListRequest {
  readonly query: DecodedQuery<TicketQuery>;
  readonly shown: RepresentationOptions;
}

/**
 * Reads the ticket list's query parameters (state, sort, q, fields, embed, page, per_page, and
 * the queue filters: queue-params.ts).
 * Every bad value is reported, each naming its parameter; unknown parameters are ignored.
 * `viaAlias`: the request came through /v1/tickets/recently_closed.
 */
export const decodeTicketList = (params: QueryParams, viaAlias = false): TicketListRequest => {
  const issues: QueryIssue[] = [];
  const q = param(params, 'q') ?? '';
  const savedSearch = q.trim() === recentlyClosedAlias;
  const recentlyClosed = viaAlias || savedSearch;
  const states = parseStates(params, issues);
  const sort = ticketOrder(parseSort(params, issues), recentlyClosed);
  const shown = parseRepresentationOptions(params, issues);
  const page = parsePage(params, issues);
  const terms = savedSearch ? [] : searchTerms(q);
  const queue = parseQueue(params, issues);
  const custom = parseCustomFilters(params, issues);
  const query: TicketQuery = {
    states,
    recentlyClosed,
    terms,
    sort,
    embed: relationsOf(shown.embed),
    queue,
    custom,
    customKeys: shown.customKeys,
    ...page,
  };
  return { query: issues.length > 0 ? E.left(issues) : E.right(query), shown };
};

/** A single ticket read: the relations to load, and what the answer should show. */
export interface TicketReadRequest {
  readonly embed: DecodedQuery<TicketReadQuery>;
  readonly shown: RepresentationOptions;
}

export const decodeTicketRead = (params: QueryParams): TicketReadRequest => {
  const issues: QueryIssue[] = [];
  const shown = parseRepresentationOptions(params, issues);
  return {
    embed:
      issues.length > 0 ? E.left(issues) : E.right({ embed: relationsOf(shown.embed), customKeys: shown.customKeys }),
    shown,
  };
};
