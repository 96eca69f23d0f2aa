import * as E from 'fp-ts/lib/Either.js';
import type { Role } from './role.js';

export const ticketStates = ['open', 'pending', 'closed'] as const;
export type TicketState = (typeof ticketStates)[number];

export const initialTicketState: TicketState = 'open';

/** Sorting by state follows the life cycle: open, pending, closed. */
export const stateRank = (s: TicketState): number => ticketStates.indexOf(s);

const allowed: Readonly<Record<TicketState, readonly TicketState[]>> = {
  open: ['open', 'pending', 'closed'],
  pending: ['pending', 'open', 'closed'],
  closed: ['closed', 'open'],
};

export interface StateChange {
  readonly state: TicketState;
  readonly closedAt: number | null;
}

export interface RefusedTransition {
  readonly from: TicketState;
  readonly to: TicketState;
}

/**
 * The ticket state machine: open<->pending, open/pending->closed, closed->open.
 * closed->pending is refused. `closedAt` is set when the ticket becomes closed,
 * kept while it stays closed and cleared when it is reopened.
 */
export const changeState = (
  current: StateChange,
  to: TicketState,
  now: number,
): E.Either<RefusedTransition, StateChange> => {
  if (!allowed[current.state].includes(to)) return E.left({ from: current.state, to });
  if (to !== 'closed') return E.right({ state: to, closedAt: null });
  return E.right({ state: to, closedAt: current.state === 'closed' ? current.closedAt : now });
};

export const canTransition = (from: TicketState, to: TicketState): boolean => allowed[from].includes(to);

/** The states a role may set a ticket to: customers close or reopen their tickets, staff use the whole machine. */
export const statesFor = (role: Role): readonly TicketState[] =>
  role === 'customer' ? ['open', 'closed'] : ticketStates;

/**
 * Contract §7.2: the states a caller of `role` may move a ticket in `state` to now, in life-cycle
 * order (its own state is no move); none for a deleted ticket.
 */
export const allowedTransitions = (state: TicketState, deleted: boolean, role: Role): TicketState[] =>
  deleted ? [] : ticketStates.filter((to) => to !== state && canTransition(state, to) && statesFor(role).includes(to));
