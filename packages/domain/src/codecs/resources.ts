import type * as t from 'io-ts';
import { Email } from '../email.js';
import { GroupId, UserId } from '../ids.js';
import { priorities } from '../priority.js';
import { roles } from '../role.js';
import { ticketStates } from '../ticket-state.js';
import { booleanField, boundedString, distinctList, nullable, oneOf, reference } from './field-codecs.js';
import { strictObject } from './object-codec.js';

// Request bodies of every write, one codec each. Field limits are those of contract §4.

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
} as const;

const subject = boundedString('string of 1-200 characters', { ...limits.subject, nonBlank: true });
const summary = boundedString('string of 0-10000 characters', limits.summary);
const state = oneOf('ticket state', ticketStates);
const priority = oneOf('priority', priorities);
const tags = distinctList('list of tags', boundedString('tag of 1-50 characters', { ...limits.tag, nonBlank: true }), limits.tags);
const userRef = reference(UserId, 'user');
const groupRef = reference(GroupId, 'group');

const ticketReadOnly = ['id', 'url', 'created_at', 'updated_at', 'closed_at', 'customer', 'customer_name', 'assigned_user', 'group', 'messages_url'];

const ticketOptional = {
  summary,
  priority,
  customer_id: userRef,
  assigned_user_id: nullable(userRef),
  group_id: nullable(groupRef),
  tags,
};

/** POST /tickets. New tickets start open, so `state` is not accepted here. */
export const TicketCreateBody = strictObject('ticket', {
  required: { subject },
  optional: ticketOptional,
  readOnly: [...ticketReadOnly, 'state'],
});

/** PUT /tickets/{id}: every writable field; omitted optional ones return to their defaults. */
export const TicketReplaceBody = strictObject('ticket', {
  required: { subject },
  optional: { ...ticketOptional, state },
  readOnly: ticketReadOnly,
});

/** PATCH /tickets/{id} (JSON merge patch): only the given fields change; null resets to the default. */
export const TicketPatchBody = strictObject('ticket', {
  required: {},
  optional: {
    subject,
    summary: nullable(summary),
    state,
    priority: nullable(priority),
    customer_id: userRef,
    assigned_user_id: nullable(userRef),
    group_id: nullable(groupRef),
    tags: nullable(tags),
  },
  readOnly: ticketReadOnly,
  mergePatch: true,
});

const body = boundedString('string of 1-50000 characters', { ...limits.body, nonBlank: true });
const messageReadOnly = ['id', 'url', 'author', 'ticket', 'created_at', 'updated_at'];

export const MessageCreateBody = strictObject('message', {
  required: { body },
  optional: { internal: booleanField },
  readOnly: messageReadOnly,
});
export const MessageReplaceBody = MessageCreateBody;
export const MessagePatchBody = strictObject('message', {
  required: {},
  optional: { body, internal: nullable(booleanField) },
  readOnly: messageReadOnly,
  mergePatch: true,
});

const name = boundedString('string of 1-200 characters', { ...limits.name, nonBlank: true });
const password = boundedString('string of 8-256 characters', limits.password);
const role = oneOf('role', roles);
const groupIds = distinctList('list of group ids', groupRef, 100);
const userReadOnly = ['id', 'url', 'created_at', 'updated_at', 'groups'];

export const UserCreateBody = strictObject('user', {
  required: { name, email: Email, password },
  optional: { role, group_ids: groupIds },
  readOnly: userReadOnly,
});
/** PUT /users/{id}: password may be omitted (it is kept); role and group_ids return to their defaults. */
export const UserReplaceBody = strictObject('user', {
  required: { name, email: Email },
  optional: { password, role, group_ids: groupIds },
  readOnly: userReadOnly,
});
export const UserPatchBody = strictObject('user', {
  required: {},
  optional: { name, email: Email, password, role, group_ids: nullable(groupIds) },
  readOnly: userReadOnly,
  mergePatch: true,
});

const groupName = boundedString('string of 1-100 characters', { ...limits.groupName, nonBlank: true });
const description = boundedString('string of 0-1000 characters', limits.description);
const groupReadOnly = ['id', 'url', 'created_at', 'updated_at', 'users_url'];

export const GroupCreateBody = strictObject('group', {
  required: { name: groupName },
  optional: { description },
  readOnly: groupReadOnly,
});
export const GroupReplaceBody = GroupCreateBody;
export const GroupPatchBody = strictObject('group', {
  required: {},
  optional: { name: groupName, description: nullable(description) },
  readOnly: groupReadOnly,
  mergePatch: true,
});

export type TicketCreateInput = t.TypeOf<typeof TicketCreateBody>;
export type TicketReplaceInput = t.TypeOf<typeof TicketReplaceBody>;
export type TicketPatchInput = t.TypeOf<typeof TicketPatchBody>;
export type MessageCreateInput = t.TypeOf<typeof MessageCreateBody>;
export type MessagePatchInput = t.TypeOf<typeof MessagePatchBody>;
export type UserCreateInput = t.TypeOf<typeof UserCreateBody>;
export type UserReplaceInput = t.TypeOf<typeof UserReplaceBody>;
export type UserPatchInput = t.TypeOf<typeof UserPatchBody>;
export type GroupCreateInput = t.TypeOf<typeof GroupCreateBody>;
export type GroupPatchInput = t.TypeOf<typeof GroupPatchBody>;
