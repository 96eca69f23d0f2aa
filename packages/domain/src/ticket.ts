import * as E from 'fp-ts/lib/Either.js';
import type { TicketCreateInput, TicketPatchInput, TicketReplaceInput } from './inputs.js';
import { fieldError, type FieldError } from './errors.js';
import type { GroupId, TicketId, UserId } from './ids.js';
import { defaultPriority, type Priority } from './priority.js';
import { revise } from './revision.js';
import { sameItems } from './same-items.js';
import { changeState, initialTicketState, type TicketState } from './ticket-state.js';
import { distinctWords } from './tokenizer.js';

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
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly closedAt: number | null;
  /** Set by DELETE: the ticket then answers "gone" and leaves every list. */
  readonly deletedAt: number | null;
  /** Incremented by every write; a write that expects another version is refused. */
  readonly version: number;
}

/** The words a ticket is found by: those of its subject, summary and customer name. */
export const ticketWords = (t: Pick<Ticket, 'subject' | 'summary' | 'customerName'>): string[] =>
  distinctWords(t.subject, t.summary, t.customerName);

export interface Customer {
  readonly id: UserId;
  readonly name: string;
}

export const createTicket = (id: TicketId, input: TicketCreateInput, customer: Customer, now: number): Ticket => ({
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
  createdAt: now,
  updatedAt: now,
  closedAt: null,
  deletedAt: null,
  version: 1,
});

/** The writable fields of a ticket after a write, before the state machine has been consulted. */
export interface TicketChanges {
  readonly subject: string;
  readonly summary: string;
  readonly state: TicketState;
  readonly priority: Priority;
  readonly customer: Customer;
  readonly assignedUserId: UserId | null;
  readonly groupId: GroupId | null;
  readonly tags: readonly string[];
}

const currentChanges = (t: Ticket): TicketChanges => ({
  subject: t.subject,
  summary: t.summary,
  state: t.state,
  priority: t.priority,
  customer: { id: t.customerId, name: t.customerName },
  assignedUserId: t.assignedUserId,
  groupId: t.groupId,
  tags: t.tags,
});

/** A replacement: every writable field is replaced; omitted optional ones return to their defaults, an omitted customer stays. */
export const replacementChanges = (t: Ticket, input: TicketReplaceInput, customer: Customer | null): TicketChanges => ({
  subject: input.subject,
  summary: input.summary ?? '',
  state: input.state ?? initialTicketState,
  priority: input.priority ?? defaultPriority,
  customer: customer ?? { id: t.customerId, name: t.customerName },
  assignedUserId: input.assignedUserId ?? null,
  groupId: input.groupId ?? null,
  tags: input.tags ?? [],
});

/** A patch (merge-patch semantics, RFC 7396): only the given fields change; null resets a field to its default. */
export const patchChanges = (t: Ticket, input: TicketPatchInput, customer: Customer | null): TicketChanges => {
  const c = currentChanges(t);
  return {
    subject: input.subject ?? c.subject,
    summary: input.summary === undefined ? c.summary : (input.summary ?? ''),
    state: input.state ?? c.state,
    priority: input.priority === undefined ? c.priority : (input.priority ?? defaultPriority),
    customer: customer ?? c.customer,
    assignedUserId: input.assignedUserId === undefined ? c.assignedUserId : input.assignedUserId,
    groupId: input.groupId === undefined ? c.groupId : input.groupId,
    tags: input.tags === undefined ? c.tags : (input.tags ?? []),
  };
};

/** Whether applying these changes would leave the ticket as it is (then nothing is written). */
export const changesNothing = (t: Ticket, c: TicketChanges): boolean =>
  t.subject === c.subject &&
  t.summary === c.summary &&
  t.state === c.state &&
  t.priority === c.priority &&
  t.customerId === c.customer.id &&
  t.customerName === c.customer.name &&
  t.assignedUserId === c.assignedUserId &&
  t.groupId === c.groupId &&
  sameItems(t.tags, c.tags);

/**
 * Applies changes through the state machine. A refused transition (closed -> pending)
 * is a field error on `state`. A write that changes nothing keeps the ticket as it is.
 */
export const applyTicketChanges = (t: Ticket, c: TicketChanges, now: number): E.Either<FieldError[], Ticket> => {
  const state = changeState({ state: t.state, closedAt: t.closedAt }, c.state, now);
  if (E.isLeft(state)) {
    const { from, to } = state.left;
    return E.left([fieldError('state', 'invalid_transition', `a ${from} ticket cannot become ${to}`)]);
  }
  if (changesNothing(t, c)) return E.right(t);
  return E.right(
    revise(t, now, {
      subject: c.subject,
      summary: c.summary,
      state: state.right.state,
      closedAt: state.right.closedAt,
      priority: c.priority,
      customerId: c.customer.id,
      customerName: c.customer.name,
      assignedUserId: c.assignedUserId,
      groupId: c.groupId,
      tags: c.tags,
    }),
  );
};

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
