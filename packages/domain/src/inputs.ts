import type { CustomFieldsGiven } from './custom-fields/ticket-values.js';
import type { EventType } from './event-type.js';
import type { Email } from './email.js';
import type { AttachmentId, GroupId, UserId } from './ids.js';
import type { Priority } from './priority.js';
import type { Role } from './role.js';
import type { TicketState } from './ticket-state.js';

// What a write asks for, once decoded: types, limits and unknown fields are the edge's to check.
// Fields have the domain's names (customerId, groupIds); the HTTP adapter maps the API's names
// (customer_id, group_ids) to them and back. In a patch (merge-patch semantics) an absent field
// stays as it is and null returns it to its default.

export interface TicketCreateInput {
  readonly subject: string;
  readonly summary?: string;
  readonly priority?: Priority;
  readonly customerId?: UserId;
  readonly assignedUserId?: UserId | null;
  readonly groupId?: GroupId | null;
  readonly tags?: readonly string[];
  /** `custom_fields` by key, as sent: decoded against the definitions by the use case. */
  readonly customFields?: CustomFieldsGiven;
}

/** A replacement: every writable field; omitted optional ones return to their defaults. */
export interface TicketReplaceInput extends TicketCreateInput {
  readonly state?: TicketState;
}

export interface TicketPatchInput {
  readonly subject?: string;
  readonly summary?: string | null;
  readonly state?: TicketState;
  readonly priority?: Priority | null;
  readonly customerId?: UserId;
  readonly assignedUserId?: UserId | null;
  readonly groupId?: GroupId | null;
  readonly tags?: readonly string[] | null;
  readonly customFields?: CustomFieldsGiven;
}

/** A new message, or the replacement of one. */
export interface MessageCreateInput {
  readonly body: string;
  readonly internal?: boolean;
  /** Uploads the new message takes (POST only; a replacement keeps the message's attachments). */
  readonly attachmentIds?: readonly AttachmentId[];
}

export interface MessagePatchInput {
  readonly body?: string;
  readonly internal?: boolean | null;
}

export interface UserCreateInput {
  readonly name: string;
  readonly email: Email;
  readonly password: string;
  readonly role?: Role;
  readonly groupIds?: readonly GroupId[];
}

/** A replacement: the password may be omitted (it is kept); role and groupIds return to their defaults. */
export interface UserReplaceInput {
  readonly name: string;
  readonly email: Email;
  readonly password?: string;
  /** A user changing their own password proves they know the current one (contract §11). */
  readonly currentPassword?: string;
  readonly role?: Role;
  readonly groupIds?: readonly GroupId[];
}

export interface UserPatchInput {
  readonly name?: string;
  readonly email?: Email;
  readonly password?: string;
  /** A user changing their own password proves they know the current one (contract §11). */
  readonly currentPassword?: string;
  readonly role?: Role;
  readonly groupIds?: readonly GroupId[] | null;
}

/** A new group, or the replacement of one. */
export interface GroupCreateInput {
  readonly name: string;
  readonly description?: string;
}

export interface GroupPatchInput {
  readonly name?: string;
  readonly description?: string | null;
}

/** A new webhook (admins): where to, which event types (or "*"), and whether it starts delivering. */
export interface WebhookCreateInput {
  readonly url: string;
  readonly events: readonly (EventType | '*')[];
  readonly description?: string;
  readonly active?: boolean;
}

export interface WebhookPatchInput {
  readonly url?: string;
  readonly events?: readonly (EventType | '*')[];
  readonly description?: string | null;
  readonly active?: boolean;
}

/** POST /v1/webhooks/{id}/replay: send again every subscribed event after this seq. */
export interface WebhookReplayInput {
  readonly after: number;
}
