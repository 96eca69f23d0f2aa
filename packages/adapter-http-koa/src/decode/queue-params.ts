import {
  codePointLength,
  limits,
  noQueueQuery,
  parseIdSegment,
  priorities,
  type GroupId,
  type Priority,
  type QueryIssue,
  type QueueQuery,
  type UserId,
} from '@support/domain';
import { commaList, issue, param, type QueryParams } from './query-params.js';

// The queue filters of the ticket list (contract §5, "Queue filters"), read from the query
// string: assigned_user_id (ids, me, none), group_id (ids, none), customer_id (ids), priority,
// tags (all of them), updated_since (RFC 3339). Each bad value is an issue naming its parameter.

/**
 * The parameter of each queue condition: a condition added to QueueQuery and not named here
 * fails the build, and server/test/http/queue-filters.test.ts holds the OpenAPI document to
 * these names (docs/recipes.md, "A new query filter").
 */
export const queueParameters = {
  assignees: 'assigned_user_id',
  groups: 'group_id',
  customerIds: 'customer_id',
  priorities: 'priority',
  tags: 'tags',
  updatedSince: 'updated_since',
} as const satisfies Record<keyof QueueQuery, string>;

/** The names of the queue filter parameters, as the OpenAPI document lists them. */
export const queueParameterNames: readonly string[] = Object.values(queueParameters);

/** At most this many values in one list: a longer one is refused rather than sent to a store. */
export const maxListValues = 100;

const items = (name: string, params: QueryParams, issues: QueryIssue[]): string[] | null => {
  const raw = param(params, name);
  if (raw === undefined) return null;
  const out = commaList(name, raw, issues);
  if (out.length > maxListValues) {
    issues.push(
      issue(name, raw.slice(0, 60), `${name} lists ${out.length} values; at most ${maxListValues} are allowed`),
    );
    return out.slice(0, maxListValues);
  }
  return out;
};

/** A list of ids, with the words it also accepts (`me`, `none`) counted apart. */
const idList = <W extends string>(
  name: string,
  words: readonly W[],
  params: QueryParams,
  issues: QueryIssue[],
): { ids: number[]; words: Set<W> } | null => {
  const list = items(name, params, issues);
  if (list === null) return null;
  const ids: number[] = [];
  const said = new Set<W>();
  for (const item of list) {
    const id = parseIdSegment(item);
    if (id !== null) {
      if (!ids.includes(id)) ids.push(id);
    } else if ((words as readonly string[]).includes(item)) said.add(item as W);
    else {
      const also = words.length === 0 ? '' : ` or ${words.map((w) => `"${w}"`).join(', ')}`;
      issues.push(
        issue(
          name,
          item,
          `${name} takes ids (positive integers)${also}, comma-separated (got ${JSON.stringify(item.slice(0, 40))})`,
        ),
      );
    }
  }
  return { ids, words: said };
};

const isPriority = (s: string): s is Priority => (priorities as readonly string[]).includes(s);

const parsePriorities = (params: QueryParams, issues: QueryIssue[]): Priority[] | null => {
  const list = items('priority', params, issues);
  if (list === null) return null;
  const out: Priority[] = [];
  for (const p of list) {
    if (!isPriority(p))
      issues.push(
        issue('priority', p, `unknown priority "${p.slice(0, 40)}"; priorities are: ${priorities.join(', ')}`),
      );
    else if (!out.includes(p)) out.push(p);
  }
  return out;
};

const parseTags = (params: QueryParams, issues: QueryIssue[]): string[] => {
  const list = items('tags', params, issues) ?? [];
  const out: string[] = [];
  for (const tag of list) {
    const n = codePointLength(tag);
    if (n > limits.tag.max)
      issues.push(
        issue('tags', tag.slice(0, 60), `a tag is ${limits.tag.min} to ${limits.tag.max} characters long (got ${n})`),
      );
    else if (!out.includes(tag)) out.push(tag);
  }
  return out;
};

/**
 * RFC 3339 `date-time` (T or t or a space between date and time, Z or an offset). A "+" of an
 * offset that arrives as a space (an unencoded "+" in a query string) is read as the "+" it was.
 */
const dateTime =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+\- ])(\d{2}):(\d{2}))$/;

/** The instant (epoch ms, rounded up to the next millisecond) of an RFC 3339 date-time, or null. */
export const parseDateTime = (text: string): number | null => {
  const m = dateTime.exec(text);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = m[7] ?? '';
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  )
    return null;
  // setUTCFullYear, not Date.UTC, which reads the years 0-99 as 1900-1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  if (d.getUTCDate() !== day) return null;
  const local = d.getTime();
  // `updated_at >= since` on whole milliseconds: a finer fraction rounds up, never admitting an earlier one.
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3)) + (/[1-9]/.test(fraction.slice(3)) ? 1 : 0);
  const sign = m[9] === '-' ? -1 : 1;
  const at = local + ms - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  return Number.isFinite(at) && Math.abs(at) <= 8.64e15 ? at : null;
};

const parseUpdatedSince = (params: QueryParams, issues: QueryIssue[]): number | null => {
  const raw = param(params, 'updated_since');
  if (raw === undefined) return null;
  const at = parseDateTime(raw.trim());
  if (at === null)
    issues.push(
      issue(
        'updated_since',
        raw,
        `updated_since must be an RFC 3339 date-time such as 2026-11-25T08:00:00Z (got ${JSON.stringify(raw.slice(0, 60))})`,
      ),
    );
  return at;
};

/** The queue filters of a ticket list request; absent ones are no condition. */
export const parseQueue = (params: QueryParams, issues: QueryIssue[]): QueueQuery => {
  const assignees = idList('assigned_user_id', ['me', 'none'] as const, params, issues);
  const groups = idList('group_id', ['none'] as const, params, issues);
  const customers = idList('customer_id', [] as const, params, issues);
  return {
    ...noQueueQuery,
    assignees:
      assignees === null
        ? null
        : { ids: assignees.ids as UserId[], me: assignees.words.has('me'), none: assignees.words.has('none') },
    groups: groups === null ? null : { ids: groups.ids as GroupId[], none: groups.words.has('none') },
    customerIds: customers === null ? null : (customers.ids as UserId[]),
    priorities: parsePriorities(params, issues),
    tags: parseTags(params, issues),
    updatedSince: parseUpdatedSince(params, issues),
  };
};
