import type { Message } from '@support/domain';
import { link, timestamp } from './common.js';
import type { Urls } from './urls.js';

/** A message exists only inside its ticket: its id is its number there (1, 2, 3...). */
export const messageRepresentation = (urls: Urls, m: Message): Record<string, unknown> => ({
  id: m.number,
  url: urls.message(m.ticketId, m.number),
  body: m.body,
  author: link(m.authorId, urls.user(m.authorId)),
  internal: m.internal,
  ticket: link(m.ticketId, urls.ticket(m.ticketId)),
  created_at: timestamp(m.createdAt),
  updated_at: timestamp(m.updatedAt),
});
