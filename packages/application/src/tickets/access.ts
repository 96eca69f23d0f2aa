import { gone, notFound, type Ticket, type TicketId } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import { canSeeTicket } from '../policy.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';

/**
 * A ticket as the caller may reach it: another customer's ticket does not exist for a
 * customer (not found, deleted or not); a deleted ticket is gone.
 */
export const loadTicket = async (
  ports: Pick<Ports, 'tickets'>,
  actor: Actor,
  id: TicketId,
): Promise<Outcome<Ticket>> => {
  const t = await ports.tickets.findById(id);
  if (t === null || !canSeeTicket(actor, t)) return E.left(notFound('ticket', id));
  if (t.deletedAt !== null) return E.left(gone('ticket', id));
  return E.right(t);
};
