import {
  type PersonalTokenCreateInput,
  webhookValues,
  type GroupCreateInput,
  type GroupPatchInput,
  type MessageCreateInput,
  type MessagePatchInput,
  type TicketCreateInput,
  type TicketFieldCreateInput,
  type TicketFieldPatchInput,
  type TicketPatchInput,
  type TicketReplaceInput,
  type UserCreateInput,
  type UserPatchInput,
  type UserReplaceInput,
  type WebhookCreateInput,
  type WebhookPatchInput,
  type WebhookReplayInput,
} from '@support/domain';
import { bodyCodec } from '../resources/field-table.js';
import { messageNames, messageTable } from '../resources/messages.js';
import { ticketNames, ticketTable } from '../resources/tickets.js';
import { ticketFieldNames, ticketFieldTable } from '../resources/ticket-fields.js';
import { sameNames } from '../wire-names.js';
import { personalTokenNames, personalTokenSecretFields, personalTokenTable } from '../resources/personal-tokens.js';
import { userNames, userTable } from '../resources/users.js';
import { groupTable } from '../resources/groups.js';
import { webhookFields, webhookSecretFields, webhookTable } from '../resources/webhooks.js';
import { strictObject, type BodyCodec } from './object-codec.js';

// The request body of every write, one codec each: which fields it takes (by their domain
// names; the API's are in wire-names.ts), and which fields of the representation the server
// sets (refused as read-only rather than unknown). The rule for each value is the domain's.

type Body<A> = BodyCodec<A>;

/** POST /v1/tickets. New tickets start open, so `state` is not accepted here. */
export const TicketCreateBody: Body<TicketCreateInput> = bodyCodec<TicketCreateInput>()(
  'ticket',
  ticketTable,
  'create',
  ticketNames,
);
/** PUT /v1/tickets/{id}: every writable field; omitted optional ones return to their defaults. */
export const TicketReplaceBody: Body<TicketReplaceInput> = bodyCodec<TicketReplaceInput>()(
  'ticket',
  ticketTable,
  'replace',
  ticketNames,
);
/** PATCH /v1/tickets/{id} (JSON merge patch): only the given fields change; null resets to the default. */
export const TicketPatchBody: Body<TicketPatchInput> = bodyCodec<TicketPatchInput>()(
  'ticket',
  ticketTable,
  'patch',
  ticketNames,
);

/** POST of /v1/tickets/{id}/messages: a new message, with the uploads it takes (contract §9). */
export const MessageCreateBody: Body<MessageCreateInput> = bodyCodec<MessageCreateInput>()(
  'message',
  messageTable,
  'create',
  messageNames,
);
/** PUT of a message: its attachments stay (they change only by deleting one). */
export const MessageReplaceBody: Body<MessageCreateInput> = bodyCodec<Omit<MessageCreateInput, 'attachmentIds'>>()(
  'message',
  messageTable,
  'replace',
  messageNames,
);
export const MessagePatchBody: Body<MessagePatchInput> = bodyCodec<MessagePatchInput>()(
  'message',
  messageTable,
  'patch',
  messageNames,
);

export const UserCreateBody: Body<UserCreateInput> = bodyCodec<UserCreateInput>()(
  'user',
  userTable,
  'create',
  userNames,
);
/** PUT /v1/users/{id}: password may be omitted (it is kept); role and group_ids return to their defaults. */
export const UserReplaceBody: Body<UserReplaceInput> = bodyCodec<UserReplaceInput>()(
  'user',
  userTable,
  'replace',
  userNames,
);
export const UserPatchBody: Body<UserPatchInput> = bodyCodec<UserPatchInput>()('user', userTable, 'patch', userNames);

/** POST and PUT of /v1/groups. */
export const GroupCreateBody: Body<GroupCreateInput> = bodyCodec<GroupCreateInput>()(
  'group',
  groupTable,
  'create',
  sameNames,
);
export const GroupReplaceBody: Body<GroupCreateInput> = bodyCodec<GroupCreateInput>()(
  'group',
  groupTable,
  'replace',
  sameNames,
);
export const GroupPatchBody: Body<GroupPatchInput> = bodyCodec<GroupPatchInput>()(
  'group',
  groupTable,
  'patch',
  sameNames,
);

// The signing secret and the delivery cursor are the server's: rotate-secret makes a new
// secret, replay moves the cursor.

/** POST /v1/webhooks. */
export const WebhookCreateBody: Body<WebhookCreateInput> = bodyCodec<WebhookCreateInput>()(
  'webhook',
  webhookTable,
  'create',
  sameNames,
  webhookSecretFields,
);

/** PATCH /v1/webhooks/{id} (JSON merge patch): null resets description to ""; url, events and active keep a value. */
export const WebhookPatchBody: Body<WebhookPatchInput> = bodyCodec<WebhookPatchInput>()(
  'webhook',
  webhookTable,
  'patch',
  sameNames,
  webhookSecretFields,
);

/** POST /v1/webhooks/{id}/replay: only the cursor; the webhook's own fields are changed by PATCH. */
export const WebhookReplayBody: Body<WebhookReplayInput> = strictObject('replay', {
  required: { after: webhookValues.after },
  optional: {},
  readOnly: [...webhookFields, ...webhookSecretFields],
});

/** POST /v1/users/me/tokens: the secret, the dates and the last use are the server's. */
export const PersonalTokenCreateBody: Body<PersonalTokenCreateInput> = bodyCodec<PersonalTokenCreateInput>()(
  'token',
  personalTokenTable,
  'create',
  personalTokenNames,
  personalTokenSecretFields,
);

// Custom field definitions (contract §10): key, type and pattern are given at creation; a
// change may name them only as they are (the domain refuses another value).

/** POST /v1/ticket_fields. */
export const TicketFieldCreateBody: Body<TicketFieldCreateInput> = bodyCodec<TicketFieldCreateInput>()(
  'ticket field',
  ticketFieldTable,
  'create',
  ticketFieldNames,
);

/** PATCH /v1/ticket_fields/{id} (JSON merge patch): null resets description to ""; pattern takes null as a value. */
export const TicketFieldPatchBody: Body<TicketFieldPatchInput> = bodyCodec<TicketFieldPatchInput>()(
  'ticket field',
  ticketFieldTable,
  'patch',
  ticketFieldNames,
);
