import type { TicketView } from '@support/application';
import { shownCustomValues } from '@support/domain';
import { representation } from '../resources/field-table.js';
import { ticketTable } from '../resources/tickets.js';
import { pick } from './common.js';
import { plainOptions, type RepresentationOptions } from './fields.js';
import type { Urls } from './urls.js';

// A ticket as the API shows it: the fields of its table (resources/tickets.ts), in order;
// `embed` expands related users and groups, `fields` keeps only the named top-level fields.
// Messages are behind `messages_url`.

const full = representation(ticketTable);

export const ticketRepresentation = (
  urls: Urls,
  view: TicketView,
  options: RepresentationOptions = plainOptions,
): Record<string, unknown> => {
  const shown = full({ view, urls, embed: options.embed });
  const { fields, customKeys } = options;
  if (fields === null) return shown;
  const picked = pick(shown, fields);
  // fields=cf.<key>: custom_fields with those keys only (contract §10), unless it is named whole.
  if (customKeys.length > 0 && !fields.includes('custom_fields'))
    picked.custom_fields = shownCustomValues(view.fields, view.ticket.customFields, customKeys);
  return picked;
};
