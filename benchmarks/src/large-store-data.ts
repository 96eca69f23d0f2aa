// The data of bench:large (large-store.ts): a help desk's tickets and messages with realistic
// texts (subjects of 3-6 Zipf-distributed words, summaries of 8-20, message bodies of 15-60),
// written into an embedded DATA_DIR through the store's ports, in this process, as the service
// would write them: ids from the store's sequences (`ticket`, then `message:<ticket id>` for
// each message), each write with its event in the change feed.
import { createEmbeddedStore } from '@support/adapter-embedded';
import {
  createTicket,
  type Message,
  type MessageNumber,
  type Priority,
  type Ticket,
  type TicketId,
  type TicketState,
  type UserId,
} from '@support/domain';
import { load } from './support/knobs.js';
import { capital, helpDeskVocabulary, seeded } from './support/seeded.js';

/** A user the tickets name: a customer (who writes the messages) or an agent (assigned). */
export interface Person {
  readonly id: number;
  readonly name: string;
}

const states: readonly TicketState[] = ['open', 'pending', 'closed', 'closed', 'closed'];
const priorities: readonly Priority[] = ['low', 'normal', 'normal', 'high', 'urgent'];
const tags = ['billing', 'hardware', 'software', 'network', 'vip'];

/** The records of ticket `id` (its `messages` messages), drawn from `rng`'s sequence. */
export const helpDeskRecords = (customers: readonly Person[], agents: readonly Person[]) => {
  const { rng, int, pick, zipfOver } = seeded(0x5eed32);
  const zipf = zipfOver(helpDeskVocabulary);
  const words = (min: number, max: number): string => Array.from({ length: min + int(max - min + 1) }, zipf).join(' ');
  const start = Date.UTC(2019, 0, 1);
  // Made by the domain's createTicket, then moved on to its drawn state: a field added to
  // Ticket takes its default here with no line of this file (docs/recipes.md, a new field).
  const ticket = (id: number): Ticket => {
    const customer = pick(customers);
    const state = pick(states);
    const at = start + id * 30_000;
    // One in 20 carries an order number: a word of its own, as real subjects have.
    const subject = capital(words(3, 6)) + (rng() < 0.05 ? ` #${String(100_000 + int(900_000))}` : '');
    const summary = `${capital(words(8, 20))}.`;
    const priority = pick(priorities);
    const assignedUserId = rng() < 0.7 ? (pick(agents).id as UserId) : null;
    const tagged = rng() < 0.4 ? [pick(tags)] : [];
    const created = createTicket(
      id as TicketId,
      { subject, summary, priority, assignedUserId, tags: tagged },
      { id: customer.id as UserId, name: customer.name },
      at,
    );
    return { ...created, state, updatedAt: at + 60_000, closedAt: state === 'closed' ? at + 60_000 : null };
  };
  const message = (t: Ticket, number: number): Message => {
    const at = t.createdAt + number * 1_000;
    return {
      ticketId: t.id,
      number: number as MessageNumber,
      body: `${capital(words(15, 60))}.`,
      authorId: t.customerId,
      internal: rng() < 0.1,
      attachments: [],
      createdAt: at,
      updatedAt: at,
      deletedAt: null,
      version: 1,
    };
  };
  return { ticket, message };
};

/**
 * Writes `tickets` tickets with `messages` messages each into the embedded store in `dataDir`
 * (its users made already), `inFlight` tickets at a time (their commits are shared), printing
 * progress. Answers the seconds it took.
 */
export const fillHelpDesk = async (
  dataDir: string,
  people: { readonly customers: readonly Person[]; readonly agents: readonly Person[] },
  tickets: number,
  messages: number,
  inFlight = 2_000,
): Promise<number> => {
  const store = createEmbeddedStore({ dataDir });
  await store.start();
  const records = helpDeskRecords(people.customers, people.agents);
  const started = performance.now();
  const one = async (): Promise<void> => {
    const t = records.ticket(await store.ids.next('ticket'));
    await store.tickets.insert(t);
    for (let k = 0; k < messages; k += 1) {
      const refused = await store.messages.insert(records.message(t, await store.ids.next(`message:${String(t.id)}`)));
      if (refused.length > 0) throw new Error(`message of ticket ${String(t.id)} refused`);
    }
  };
  let next = 0;
  for (let done = 0; done < tickets; done += inFlight) {
    const batch: Promise<void>[] = [];
    for (let k = 0; k < inFlight && done + k < tickets; k += 1) batch.push(one());
    await Promise.all(batch);
    if (done + inFlight >= next) {
      console.log(
        `  filled ${String(Math.min(tickets, done + inFlight))} tickets in ${((performance.now() - started) / 1000).toFixed(0)} s (${load()})`,
      );
      next += 250_000;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return seconds;
};
