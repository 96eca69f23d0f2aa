import type { TicketRelation } from '@support/domain';

// The top-level fields of each representation, in order, and which of them a request asked
// to see (`fields`, `embed`): both apply to lists and single reads of tickets.

/** A ticket's fields are its table's (resources/tickets.ts). */
import type { EmbedSpec, TicketField } from '../resources/tickets.js';
import { userFields } from '../resources/users.js';
export { userFields } from '../resources/users.js';
import { groupFields } from '../resources/groups.js';
export { groupFields } from '../resources/groups.js';
export { ticketFields, type TicketField } from '../resources/tickets.js';

/** What `embed` may expand (by the domain's names of the relations), with the sub-fields it may add to the link object (`customer.name`). */
export const embeddable = {
  customer: userFields,
  assignedUser: userFields,
  group: groupFields,
} as const satisfies Record<TicketRelation, readonly string[]>;

export type { EmbedSelection, EmbedSpec } from '../resources/tickets.js';

export interface RepresentationOptions {
  /** null: every field. */
  readonly fields: readonly TicketField[] | null;
  readonly embed: EmbedSpec;
  /** The custom fields `fields=cf.<key>` names (shown in `custom_fields` when `fields` does not name it whole). */
  readonly customKeys: readonly string[];
}

export const plainOptions: RepresentationOptions = { fields: null, embed: {}, customKeys: [] };
