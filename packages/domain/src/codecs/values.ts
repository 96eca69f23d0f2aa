import { Email } from '../email.js';
import { GroupId, UserId } from '../ids.js';
import { priorities } from '../priority.js';
import { roles } from '../role.js';
import { ticketStates } from '../ticket-state.js';
import { booleanField, boundedString, distinctList, oneOf, reference } from './field-codecs.js';

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
} as const;

const userRef = reference(UserId, 'user');
const groupRef = reference(GroupId, 'group');

export const ticketValues = {
  subject: boundedString('string of 1-200 characters', { ...limits.subject, nonBlank: true }),
  summary: boundedString('string of 0-10000 characters', limits.summary),
  state: oneOf('ticket state', ticketStates),
  priority: oneOf('priority', priorities),
  tags: distinctList('list of tags', boundedString('tag of 1-50 characters', { ...limits.tag, nonBlank: true }), limits.tags),
  /** The customer or the assignee. */
  user: userRef,
  group: groupRef,
};

export const messageValues = {
  body: boundedString('string of 1-50000 characters', { ...limits.body, nonBlank: true }),
  internal: booleanField,
};

export const userValues = {
  name: boundedString('string of 1-200 characters', { ...limits.name, nonBlank: true }),
  email: Email,
  password: boundedString('string of 8-256 characters', limits.password),
  role: oneOf('role', roles),
  groupIds: distinctList('list of group ids', groupRef, limits.groupIds),
};

export const groupValues = {
  name: boundedString('string of 1-100 characters', { ...limits.groupName, nonBlank: true }),
  description: boundedString('string of 0-1000 characters', limits.description),
};
