import type { TicketView } from '@support/application';
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
  return options.fields === null ? shown : pick(shown, options.fields);
};
