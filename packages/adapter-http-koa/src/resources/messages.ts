import { attachmentLimits, limits, messageValues, type Message } from '@support/domain';
import { ref } from '../openapi/json.js';
import { id, timestamp as timestampSchema, url } from '../openapi/schemas/fields.js';
import { link, timestamp } from '../representations/common.js';
import type { Urls } from '../representations/urls.js';
import { attachmentOnMessage } from '../representations/attachment.js';
import { answered, namesOf, writable, writeOnly, type FieldTable } from './field-table.js';

// A message's fields, described once (resources/field-table.ts). A message exists only inside
// its ticket: its id is its number there (1, 2, 3...).

/** What a message's representation is made from. */
export interface MessageSource {
  readonly message: Message;
  readonly urls: Urls;
}

export const messageTable = {
  id: answered((s: MessageSource) => s.message.number, id('The number of the message inside its ticket.')),
  url: answered((s: MessageSource) => s.urls.message(s.message.ticketId, s.message.number), url('This message.')),
  body: writable((s: MessageSource) => s.message.body, {
    domain: 'body',
    codec: messageValues.body,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: { description: `The message text: ${limits.body.min}-${limits.body.max} characters, not blank.` },
  }),
  author: answered((s: MessageSource) => link(s.message.authorId, s.urls.user(s.message.authorId)), {
    ...ref('Link'),
    readOnly: true,
    description: 'The user who wrote it (the caller at creation).',
  }),
  internal: writable((s: MessageSource) => s.message.internal, {
    domain: 'internal',
    codec: messageValues.internal,
    create: 'optional',
    replace: 'optional',
    resettable: true,
    said: {
      description: 'An internal note: seen by agents and admins only (to a customer it does not exist). Default false.',
    },
  }),
  attachments: answered((s: MessageSource) => s.message.attachments.map((a) => attachmentOnMessage(s.urls, a)), {
    type: 'array',
    items: ref('MessageAttachment'),
    readOnly: true,
    description: 'The files it carries (attachment_ids when it was added), in that order; [] when none.',
  }),
  // Contract §9: a new message takes uploads; a replacement or a patch keeps its attachments.
  attachment_ids: writeOnly({
    domain: 'attachmentIds',
    codec: messageValues.attachmentIds,
    create: 'optional',
    replace: 'refused',
    patch: 'refused',
    resettable: false,
    refusedSaid:
      'is taken only when a message is added (POST); a message keeps its attachments, and DELETE /v1/attachments/{id} removes one',
    said: {
      description: `At most ${String(attachmentLimits.perMessage)} ids of the caller's own uploads (POST /v1/uploads), not attached and not expired; each becomes an attachment of the message. One that is not: 422 naming it (attachment_ids.<index>), and nothing is stored.`,
    },
  }),
  ticket: answered((s: MessageSource) => link(s.message.ticketId, s.urls.ticket(s.message.ticketId)), {
    ...ref('Link'),
    readOnly: true,
    description: 'The ticket it belongs to.',
  }),
  created_at: answered(
    (s: MessageSource) => timestamp(s.message.createdAt),
    timestampSchema('When the message was added.'),
  ),
  updated_at: answered(
    (s: MessageSource) => timestamp(s.message.updatedAt),
    timestampSchema('When the message last changed.'),
  ),
} satisfies FieldTable<MessageSource>;

export const messageNames = namesOf(messageTable);
