import type { TicketFieldDefinition } from '@support/domain';
import { representation } from '../resources/field-table.js';
import { ticketFieldTable } from '../resources/ticket-fields.js';
import type { Urls } from './urls.js';

// A custom field's definition (contract §10) as the API shows it: the fields of its table
// (resources/ticket-fields.ts), in order.

const full = representation(ticketFieldTable);

export const ticketFieldRepresentation = (urls: Urls, field: TicketFieldDefinition): Record<string, unknown> =>
  full({ field, urls });
