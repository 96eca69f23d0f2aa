import * as t from 'io-ts';

// Identifiers are positive safe integers, branded so a ticket id can never be passed
// where a user id is expected.
const isPositiveSafeInt = (n: number): boolean => n >= 1 && n <= Number.MAX_SAFE_INTEGER;

export interface TicketIdBrand {
  readonly TicketId: unique symbol;
}
export const TicketId = t.brand(t.Int, (n): n is t.Branded<t.Int, TicketIdBrand> => isPositiveSafeInt(n), 'TicketId');
export type TicketId = t.TypeOf<typeof TicketId>;

export interface UserIdBrand {
  readonly UserId: unique symbol;
}
export const UserId = t.brand(t.Int, (n): n is t.Branded<t.Int, UserIdBrand> => isPositiveSafeInt(n), 'UserId');
export type UserId = t.TypeOf<typeof UserId>;

export interface GroupIdBrand {
  readonly GroupId: unique symbol;
}
export const GroupId = t.brand(t.Int, (n): n is t.Branded<t.Int, GroupIdBrand> => isPositiveSafeInt(n), 'GroupId');
export type GroupId = t.TypeOf<typeof GroupId>;

export interface MessageNumberBrand {
  readonly MessageNumber: unique symbol;
}
/** A message's id inside its ticket: 1, 2, 3... */
export const MessageNumber = t.brand(
  t.Int,
  (n): n is t.Branded<t.Int, MessageNumberBrand> => isPositiveSafeInt(n),
  'MessageNumber',
);
export type MessageNumber = t.TypeOf<typeof MessageNumber>;

export interface WebhookIdBrand {
  readonly WebhookId: unique symbol;
}
export const WebhookId = t.brand(
  t.Int,
  (n): n is t.Branded<t.Int, WebhookIdBrand> => isPositiveSafeInt(n),
  'WebhookId',
);
export type WebhookId = t.TypeOf<typeof WebhookId>;

/** Parses a path segment such as "42" into an id; anything else (leading zeros, signs, "1e3") is null. */
export const parseIdSegment = (segment: string): number | null => {
  if (!/^[1-9][0-9]{0,15}$/.test(segment)) return null;
  const n = Number(segment);
  return isPositiveSafeInt(n) ? n : null;
};

export interface AttachmentIdBrand {
  readonly AttachmentId: unique symbol;
}
/** An uploaded file's id: the same number while it is an upload and once a message holds it. */
export const AttachmentId = t.brand(
  t.Int,
  (n): n is t.Branded<t.Int, AttachmentIdBrand> => isPositiveSafeInt(n),
  'AttachmentId',
);
export type AttachmentId = t.TypeOf<typeof AttachmentId>;
export interface TicketFieldIdBrand {
  readonly TicketFieldId: unique symbol;
}
/** A custom field definition's id (contract §10). */
export const TicketFieldId = t.brand(
  t.Int,
  (n): n is t.Branded<t.Int, TicketFieldIdBrand> => isPositiveSafeInt(n),
  'TicketFieldId',
);
export type TicketFieldId = t.TypeOf<typeof TicketFieldId>;
