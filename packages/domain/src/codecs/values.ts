import { Email } from '../email.js';
import { eventTypes, type EventType } from '../event-type.js';
import { AttachmentId, GroupId, UserId } from '../ids.js';
import { attachmentLimits } from '../attachment.js';
import { priorities } from '../priority.js';
import { roles } from '../role.js';
import { personalTokenLimits } from '../personal-token.js';
import { scopes } from '../scope.js';
import { ticketStates } from '../ticket-state.js';
import * as t from 'io-ts';
import { booleanField, boundedString, distinctList, failWith, oneOf, reference } from './field-codecs.js';
import { shaped, type ShapedCodec, type ValueShape } from './value-shape.js';

// The rule for each writable value (contract §4), as a codec whose failures carry a
// field-error code. Which fields a request body has, and what they are called, is the edge's.

export const limits = {
  subject: { min: 1, max: 200 },
  summary: { min: 0, max: 10000 },
  tag: { min: 1, max: 50 },
  tags: 50,
  body: { min: 1, max: 50000 },
  name: { min: 1, max: 200 },
  password: { min: 8, max: 256 },
  groupName: { min: 1, max: 100 },
  description: { min: 0, max: 1000 },
  groupIds: 100,
  webhookUrl: { min: 1, max: 2048 },
} as const;

/** RFC 3339 date-time with an offset (2026-03-01T00:00:00Z, ...+02:00): its wall-clock time, offset sign, hours, minutes. */
const rfc3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d{1,9})?(?:Z|([+-])(\d{2}):(\d{2}))$/i;

/**
 * The instant (epoch ms) of an RFC 3339 date-time, NaN when it is not one. Date.parse rolls a
 * day the month lacks (02-30) or the hour 24 over into the next day; RFC 3339 has neither, so the
 * instant's wall-clock time at the string's offset must read back as the string's.
 */
const epochMsOf = (s: string): number => {
  const m = rfc3339.exec(s);
  if (m === null) return NaN;
  const [matched, written, sign, hours, minutes] = m;
  const ms = Date.parse(matched);
  if (Number.isNaN(ms)) return NaN;
  const offsetMinutes = sign === undefined ? 0 : Number(`${sign}1`) * (Number(hours) * 60 + Number(minutes));
  const wall = new Date(ms + offsetMinutes * 60_000).toISOString();
  return wall.slice(0, 19) === String(written).toUpperCase() ? ms : NaN;
};

export const dateTime: ShapedCodec<number, string> = shaped(
  new t.Type<number, string, unknown>(
    'an RFC 3339 date-time',
    (u): u is number => typeof u === 'number',
    (u, c) => {
      if (typeof u !== 'string') return failWith(u, c, 'invalid_type', 'must be an RFC 3339 date-time string');
      const ms = epochMsOf(u);
      return Number.isNaN(ms)
        ? failWith(u, c, 'invalid_value', 'must be an RFC 3339 date-time (2026-03-01T00:00:00Z)')
        : t.success(ms);
    },
    (ms) => new Date(ms).toISOString(),
  ),
  { kind: 'date-time' },
);

const userRef = reference(UserId, 'a user');
// Stryker disable next-line StringLiteral: a list item's name shows in no message (each of its refusals carries its own code and text)
const tag = boundedString('tag of 1-50 characters', { ...limits.tag, nonBlank: true });
const groupRef = reference(GroupId, 'a group');

export const ticketValues = {
  subject: boundedString('string of 1-200 characters', { ...limits.subject, nonBlank: true }),
  summary: boundedString('string of 0-10000 characters', limits.summary),
  state: oneOf('ticket state', ticketStates),
  priority: oneOf('priority', priorities),
  tags: distinctList('list of tags', tag, limits.tags),
  /** The customer or the assignee. */
  user: userRef,
  group: groupRef,
};

export const messageValues = {
  body: boundedString('string of 1-50000 characters', { ...limits.body, nonBlank: true }),
  internal: booleanField,
  attachmentIds: distinctList(
    'list of at most 10 upload ids',
    reference(AttachmentId, 'an upload'),
    attachmentLimits.perMessage,
  ),
};

export const userValues = {
  name: boundedString('string of 1-200 characters', { ...limits.name, nonBlank: true }),
  email: shaped(Email, { kind: 'email' }),
  password: boundedString('string of 8-256 characters', limits.password),
  /** Any password that could be the current one: checked against it, not against the rule for new ones. */
  currentPassword: boundedString('string of 1-256 characters', { min: 1, max: limits.password.max }),
  role: oneOf('role', roles),
  groupIds: distinctList('list of group ids', groupRef, limits.groupIds),
};

export const groupValues = {
  name: boundedString('string of 1-100 characters', { ...limits.groupName, nonBlank: true }),
  description: boundedString('string of 0-1000 characters', limits.description),
};

/** An absolute http(s) URL without credentials; which schemes and hosts may be called is the application's to say. */
const webhookUrl: ShapedCodec<string> = shaped(
  new t.Type<string, string, unknown>(
    'absolute http(s) URL of 1-2048 characters',
    (u): u is string => typeof u === 'string',
    (u, c) => {
      if (typeof u !== 'string') return failWith(u, c, 'invalid_type', 'must be a string');
      if (u.length < limits.webhookUrl.min || u.length > limits.webhookUrl.max)
        return failWith(u, c, 'invalid_length', 'must be 1 to 2048 characters long');
      if (!URL.canParse(u)) return failWith(u, c, 'invalid_value', 'must be an absolute URL');
      const url = new URL(u);
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        return failWith(u, c, 'invalid_value', 'must be an https:// URL');
      if (url.username !== '' || url.password !== '')
        return failWith(u, c, 'invalid_value', 'must not carry credentials');
      return t.success(u);
    },
    t.identity,
  ),
  { kind: 'url', ...limits.webhookUrl },
);

/** Non-negative safe integers: feed positions. (Number.isSafeInteger is false for anything but a number.) */
const isSequenceNumber = (u: unknown): u is number => Number.isSafeInteger(u) && (u as number) >= 0;
const sequenceNumber: ShapedCodec<number> = shaped(
  new t.Type<number, number, unknown>(
    'non-negative integer',
    isSequenceNumber,
    (u, c) =>
      isSequenceNumber(u)
        ? t.success(u)
        : failWith(u, c, 'invalid_type', 'must be a non-negative integer (a seq of the change feed)'),
    t.identity,
  ),
  { kind: 'integer', min: 0 },
);

/** A list shape that needs one item at least. */
const atLeastOne = (shape: ValueShape): ValueShape => (shape.kind === 'list' ? { ...shape, minItems: 1 } : shape);

// Stryker disable next-line StringLiteral: a list item's name shows in no message (each of its refusals carries its own code and text)
const eventType = oneOf<EventType | '*'>('event type', ['*', ...eventTypes]);
const eventTypeList = distinctList('list of event types', eventType, eventTypes.length + 1);

/** At least one event type (or "*"): a webhook subscribed to nothing would never hear of anything. */
const subscribedTypes: ShapedCodec<readonly (EventType | '*')[]> = shaped(
  new t.Type<readonly (EventType | '*')[], readonly (EventType | '*')[], unknown>(
    eventTypeList.name,
    (u): u is readonly (EventType | '*')[] => eventTypeList.is(u) && u.length > 0,
    (u, c) =>
      Array.isArray(u) && u.length === 0
        ? failWith(u, c, 'invalid_length', 'must name at least one event type, or "*" for all')
        : eventTypeList.validate(u, c),
    t.identity,
  ),
  atLeastOne(eventTypeList.shape),
);

export const webhookValues = {
  url: webhookUrl,
  events: subscribedTypes,
  description: boundedString('string of 0-1000 characters', limits.description),
  active: booleanField,
  after: sequenceNumber,
};

/** A list codec that also refuses an empty list. */
const nonEmpty = <A, O>(list: ShapedCodec<readonly A[], readonly O[]>): ShapedCodec<readonly A[], readonly O[]> =>
  shaped(
    new t.Type<readonly A[], readonly O[], unknown>(
      list.name,
      (u): u is readonly A[] => list.is(u) && u.length > 0,
      (u, c) =>
        Array.isArray(u) && u.length === 0
          ? failWith(u, c, 'invalid_length', 'must name at least one value')
          : list.validate(u, c),
      list.encode,
    ),
    atLeastOne(list.shape),
  );

// Stryker disable next-line StringLiteral: a list item's name shows in no message (each of its refusals carries its own code and text)
const scope = oneOf('scope', scopes);

/** Personal access tokens (contract §8.1). */
export const personalTokenValues = {
  name: boundedString('string of 1-100 characters', { ...personalTokenLimits.name, nonBlank: true }),
  scopes: nonEmpty(distinctList('list of scopes', scope, scopes.length)),
  expiresAt: dateTime,
};
