import type { Ticket } from '../../src/index.js';
import { aCustomer, aTicket } from '../../test-support/mothers.js';

// The tickets the ticket tests (ticket*.test.ts) share.

export const alice = aCustomer();
export const bob = aCustomer(5, 'Bob Builder');

/** A ticket with every optional field away from its default. */
export const busyTicket = (): Ticket =>
  aTicket({
    subject: 'Printer on fire',
    summary: 'Smoke everywhere',
    state: 'pending',
    priority: 'urgent',
    assignedUserId: 3,
    groupId: 4,
    tags: ['hardware', 'fire'],
  });
