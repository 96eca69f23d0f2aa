import type { Ticket, TicketId, TicketState, Priority, UserId } from '@support/domain';
import { aTicket } from './builders.js';

// Contract-like tickets for the cross-check: every state and priority, closed_at null,
// inside and outside (and exactly on the edge of) the 7-day window, deleted tickets,
// several customers, accented and case-varied words, subjects that MongoDB's binary
// string order and UTF-16 order disagree on, and ties on every sort field.

export const now = Date.UTC(2026, 0, 15, 12);
const day = 86_400_000;
const week = 7 * day;

export const customers = [
  { id: 101 as UserId, name: 'Zoë Ångström' },
  { id: 102 as UserId, name: 'Jürgen Straße' },
  { id: 103 as UserId, name: 'ada lovelace' },
] as const;

const subjects = [
  'Printer on fire',
  'printer jam',
  'Café crème brûlée',
  'CAFE closed',
  'Zebra crossing',
  'apple pie',
  'Äpfel und Birnen',
  '\u{1F600} smile support',
  '\uFFFD replacement char',
  '\uE000 private use',
  'ß and SS',
  'Ωmega release',
  'Printer on fire',
  '',
  'naïve résumé',
  'x',
];
const summaries = [
  '',
  'The printer smokes',
  'café au lait',
  'NAÏVE question about the Printer',
  'nothing to see',
  'Ärger mit dem Drucker',
];
const states: readonly TicketState[] = ['open', 'pending', 'closed'];
const priorities: readonly Priority[] = ['low', 'normal', 'high', 'urgent'];
const closedAts = [now - day, now - week, now - week - 1, now - 30 * day, now - 2 * day];

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T;

export const fixtureTickets = (): Ticket[] => {
  const out: Ticket[] = [];
  for (let i = 0; i < 48; i++) {
    const state = pick(states, i);
    const customer = pick(customers, Math.floor(i / 2));
    const createdAt = now - 40 * day + Math.floor(i / 3) * day; // ties in threes
    out.push(
      aTicket({
        id: (i + 1) as TicketId,
        subject: pick(subjects, i),
        summary: pick(summaries, i * 7),
        state,
        priority: pick(priorities, Math.floor(i / 3) + i),
        customerId: customer.id,
        customerName: customer.name,
        createdAt,
        updatedAt: createdAt + (i % 4) * day, // ties too
        closedAt: state === 'closed' ? pick(closedAts, Math.floor(i / 3)) : null,
        deletedAt: i % 11 === 5 ? now - day : null,
        version: 1 + (i % 3),
      }),
    );
  }
  return out;
};
