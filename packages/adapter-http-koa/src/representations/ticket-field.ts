import type { TicketFieldDefinition } from '@support/domain';
import { timestamp } from './common.js';
import type { Urls } from './urls.js';

/** A custom field's definition (contract §10). */
export const ticketFieldRepresentation = (urls: Urls, d: TicketFieldDefinition): Record<string, unknown> => ({
  id: d.id,
  url: urls.ticketField(d.id),
  key: d.key,
  title: d.title,
  type: d.type,
  description: d.description,
  options: d.options.map((o) => ({ value: o.value, title: o.title })),
  pattern: d.pattern,
  required: d.required,
  customer_visible: d.customerVisible,
  customer_editable: d.customerEditable,
  position: d.position,
  created_at: timestamp(d.createdAt),
  updated_at: timestamp(d.updatedAt),
});
