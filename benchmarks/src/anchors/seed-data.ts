// The tickets every round's service is seeded with: the same seed, so the same subjects,
// summaries and priorities in every round (only ids' order and timestamps could differ).
import type { TicketBody } from '../support/seed.js';
import { capital, seeded, wordsOf } from '../support/seeded.js';

const vocabulary = wordsOf(`printer error login password email account cannot access invoice payment refund order
  shipping delivery broken slow crash update install screen network connection wifi vpn server
  timeout report export import file upload download sync calendar meeting phone mobile app`);

/**
 * The search word of the `?q=` endpoint: a middling word of the Zipf draw, in ~15% of tickets,
 * so the search page differs from the plain list's (the first words are in nearly every ticket).
 */
export const searchWord = 'export';

/** `count` ticket bodies for `customerId`, the same ones for the same arguments. */
export const ticketBodies = (count: number, customerId: number): TicketBody[] => {
  const { int, pick, zipfOver } = seeded(0x5eed_a11c);
  const zipf = zipfOver(vocabulary);
  const words = (min: number, max: number) => Array.from({ length: min + int(max - min + 1) }, zipf);
  const priorities = ['low', 'normal', 'normal', 'normal', 'high', 'urgent'];
  return Array.from({ length: count }, () => ({
    subject: capital(words(3, 6).join(' ')),
    summary: `${capital(words(8, 20).join(' '))}.`,
    priority: pick(priorities),
    customer_id: customerId,
  }));
};
