import { noCustomValues, type CustomValues } from './custom-fields/value.js';
import type { TicketCreateInput } from './inputs.js';
import type { GroupId, TicketId, UserId } from './ids.js';
import { defaultPriority, type Priority } from './priority.js';
import { revise } from './revision.js';
import { initialTicketState, type TicketState } from './ticket-state.js';
import { distinctWords } from './tokenizer.js';
import { upgrading, type Stored, type Upgrades } from './upgrade.js';

export interface Ticket {
  readonly id: TicketId;
  readonly subject: string;
  readonly summary: string;
  readonly state: TicketState;
  readonly priority: Priority;
  readonly customerId: UserId;
  /** The customer's name, kept with the ticket so it can be searched and selected as a field. */
  readonly customerName: string;
  readonly assignedUserId: UserId | null;
  readonly groupId: GroupId | null;
  readonly tags: readonly string[];
  /** Custom field values by field id (contract §10); a field without a value is absent. */
  readonly customFields: CustomValues;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly closedAt: number | null;
  /** Set by DELETE: the ticket then answers "gone" and leaves every list. */
  readonly deletedAt: number | null;
  /** Incremented by every write; a write that expects another version is refused. */
  readonly version: number;
}

/** The fields every stored ticket has had since the stores' first format. */
type TicketFormat1 =
  | 'id'
  | 'subject'
  | 'summary'
  | 'state'
  | 'priority'
  | 'customerId'
  | 'customerName'
  | 'assignedUserId'
  | 'groupId'
  | 'tags'
  | 'createdAt'
  | 'updatedAt'
  | 'closedAt'
  | 'deletedAt'
  | 'version';

/** What a ticket stored before a field existed is read back with: one entry per field added since format 1. */
export const ticketUpgrades: Upgrades<Ticket, TicketFormat1> = {
  // Custom fields (contract §10): a ticket written before them has no values.
  customFields: noCustomValues,
};
export type StoredTicket = Stored<Ticket, TicketFormat1>;
/** The fields a stored ticket may lack (added since format 1). */
export type TicketFieldAdded = Exclude<keyof Ticket, TicketFormat1>;
/** The upgrade step every store reads a stored ticket through (the embedded store's restorer, the Mongo mapper). */
export const upgradeTicket = upgrading<Ticket, TicketFormat1>(ticketUpgrades);

/** The words a ticket is found by: those of its subject, summary and customer name. */
export const ticketWords = (t: Pick<Ticket, 'subject' | 'summary' | 'customerName'>): string[] =>
  distinctWords(t.subject, t.summary, t.customerName);

export interface Customer {
  readonly id: UserId;
  readonly name: string;
}

/** A new ticket; `customFields` are its decoded values (custom-fields/ticket-values.ts). */
export const createTicket = (
  id: TicketId,
  input: TicketCreateInput,
  customer: Customer,
  now: number,
  customFields: CustomValues = noCustomValues,
): Ticket => ({
  id,
  subject: input.subject,
  summary: input.summary ?? '',
  state: initialTicketState,
  priority: input.priority ?? defaultPriority,
  customerId: customer.id,
  customerName: customer.name,
  assignedUserId: input.assignedUserId ?? null,
  groupId: input.groupId ?? null,
  tags: input.tags ?? [],
  customFields,
  createdAt: now,
  updatedAt: now,
  closedAt: null,
  deletedAt: null,
  version: 1,
});

/** Adding a message counts as activity on the ticket. */
export const touchTicket = (t: Ticket, now: number): Ticket => revise(t, now, {});

export const deleteTicket = (t: Ticket, now: number): Ticket => revise(t, now, { deletedAt: now });

/**
 * Changes a ticket takes when a user or group it refers to changes (a customer renamed, an
 * assignee deleted or made a customer, a group deleted): its representation changes, so
 * updated_at (its Last-Modified) moves with the version.
 */
export const renameCustomer = (t: Ticket, name: string, now: number): Ticket => revise(t, now, { customerName: name });

export const unassignTicket = (t: Ticket, now: number): Ticket => revise(t, now, { assignedUserId: null });

export const ungroupTicket = (t: Ticket, now: number): Ticket => revise(t, now, { groupId: null });
