// The help desk that bench (memory-search.ts) grows its store into: ~300 s between tickets,
// Zipf-distributed words, regular customers and ten big accounts, a rare and a scarce word, and
// the writes a desk makes as its clock passes (most tickets go pending and close hours to days
// later, a few stay open for good, a few are deleted).
import { createMemoryStore } from '@support/adapter-memory';
import { aTicket } from '@support/application/testing';
import type { Priority, Ticket, TicketId } from '@support/domain';
import { capital, helpDeskVocabulary, seeded, wordsOf } from './support/seeded.js';

interface Write {
  readonly at: number;
  readonly id: TicketId;
  readonly kind: 'delete' | 'pending' | 'closed';
}

/** A min-heap of the writes still to come, by time. */
class Events {
  readonly items: Write[] = [];
  get size() {
    return this.items.length;
  }
  peek(): Write | undefined {
    return this.items[0];
  }
  private at(i: number): Write {
    const e = this.items[i];
    if (e === undefined) throw new Error(`no event at ${i}`);
    return e;
  }
  push(e: Write) {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.at(p).at <= e.at) break;
      a[i] = this.at(p);
      i = p;
    }
    a[i] = e;
  }
  pop(): Write {
    const a = this.items;
    const top = this.at(0);
    const last = a.pop() ?? top;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= a.length) break;
        if (c + 1 < a.length && this.at(c + 1).at < this.at(c).at) c += 1;
        if (this.at(c).at >= last.at) break;
        a[i] = this.at(c);
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

/**
 * A memory store and the help desk that fills it: `growTo(size)` inserts tickets up to `size`,
 * applying every write that falls due before each creation. `smallest`: the smallest size
 * measured (the typical customer's and the rare word's tickets all lie inside it).
 */
export const helpDesk = (smallest: number) => {
  const { rng, int, pick, exp, zipfOver } = seeded(0x9e3779b9);

  // Zipf (s = 1) over the vocabulary: the first words are common, the last ones a few per thousand.
  const zipf = zipfOver(helpDeskVocabulary);
  const words = (min: number, max: number) => Array.from({ length: min + int(max - min + 1) }, zipf);

  const firstNames = wordsOf(`Ada Grace Alan Edsger Barbara Donald Margaret Ken Dennis Linus Guido Bjarne Anders
    Frances Radia Sophie Hedy Katherine Dorothy Mary Tim Vint Bob Leslie John Niklaus Tony Robin
    Shafi Silvio Judea Yann Geoffrey Fei Andrew Jeff Sanjay Larry Sergey Susan`);
  const lastNames = wordsOf(`Lovelace Hopper Turing Dijkstra Liskov Knuth Hamilton Thompson Ritchie Torvalds
    Rossum Stroustrup Hejlsberg Allen Perlman Wilson Lamarr Johnson Vaughan Jackson Berners Cerf
    Kahn Lamport Backus Wirth Hoare Milner Goldwasser Micali Pearl LeCun Hinton Li Ng Dean Ghemawat
    Page Brin Wojcicki Kay Engelbart Sutherland Cook Karp Tarjan Hellman Diffie Rivest Shamir
    Adleman Lampson Thacker Metcalfe Kernighan Aho Ullman Hennessy Patterson`);
  const bigAccounts = [
    'Acme Corp',
    'Globex',
    'Initech',
    'Umbrella',
    'Hooli',
    'Stark Industries',
    'Wayne Enterprises',
    'Tyrell',
    'Cyberdyne',
    'Soylent',
  ];
  const customerName = (id: number): string =>
    id <= bigAccounts.length
      ? (bigAccounts[id - 1] ?? '')
      : `${firstNames[(id * 7) % firstNames.length] ?? ''} ${lastNames[(id * 13) % lastNames.length] ?? ''}`;

  /** Regular customers write ~20 tickets each over a window of 8,000 tickets (~4 weeks). */
  const customerWindow = 400;
  const ticketsPerCustomer = 20;
  const regularCustomer = (i: number) => 1000 + Math.floor(i / ticketsPerCustomer) + int(customerWindow);
  /** A regular customer whose whole window lies inside the smallest store: same tickets at every size. */
  const typicalCustomer = 1000 + Math.max(0, Math.floor((0.9 * smallest) / ticketsPerCustomer) - 1);

  /** A word in exactly 40 tickets, all among the smallest store's (an old incident's code name). */
  const rareWord = 'quasar';
  const rareStep = Math.max(1, Math.floor(smallest / 40));
  const hasRareWord = (id: number) => id % rareStep === 7 % rareStep && id <= rareStep * 40;
  /** A word in ~1 ticket in 5,000, at every age: its matches grow with the store. */
  const scarceWord = 'kerberos';

  const T_START = Date.UTC(2016, 0, 4, 8, 0, 0);
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;
  const priorities: [Priority, number][] = [
    ['low', 0.2],
    ['normal', 0.55],
    ['high', 0.18],
    ['urgent', 0.07],
  ];
  const aPriority = (): Priority => {
    let x = rng();
    for (const [p, w] of priorities) if ((x -= w) < 0) return p;
    return 'normal';
  };
  const tagPool = ['billing', 'hardware', 'software', 'network', 'account', 'vip', 'bug', 'question'];

  let clock = T_START;
  const newTicket = (id: number): Ticket => {
    clock += Math.max(1000, Math.round(exp(300_000)));
    const customerId = rng() < 0.05 ? 1 + int(bigAccounts.length) : regularCustomer(id);
    const subjectWords = words(3, 6);
    if (hasRareWord(id)) subjectWords.splice(1, 0, rareWord);
    if (rng() < 1 / 5000) subjectWords.push(scarceWord);
    if (rng() < 0.02) subjectWords.push(`e${1000 + int(9000)}`); // an error code: thousands of rare words
    const summary = words(8, 20).join(' ');
    return aTicket({
      id,
      subject: capital(subjectWords.join(' ')),
      summary: `${capital(summary)}.`,
      state: 'open',
      priority: aPriority(),
      customerId,
      customerName: customerName(customerId),
      assignedUserId: rng() < 0.7 ? 2 + int(48) : null,
      groupId: rng() < 0.6 ? 1 + int(8) : null,
      tags: rng() < 0.5 ? [pick(tagPool)] : [],
      createdAt: clock,
      updatedAt: clock,
      closedAt: null,
      deletedAt: null,
      version: 1,
    });
  };

  /** The life of a new ticket: the writes that will happen to it, as events. */
  const planLife = (t: Ticket, events: Events) => {
    const x = rng();
    if (x < 0.01) events.push({ at: t.createdAt + hour + exp(day), id: t.id, kind: 'delete' });
    else if (x < 0.04) {
      if (rng() < 0.5) events.push({ at: t.createdAt + exp(4 * hour), id: t.id, kind: 'pending' }); // forgotten
    } else {
      let at = t.createdAt;
      if (rng() < 0.3) events.push({ at: (at += exp(6 * hour)), id: t.id, kind: 'pending' });
      events.push({ at: at + 10 * minute + exp(1.5 * day), id: t.id, kind: 'closed' });
    }
  };

  const store = createMemoryStore();
  const events = new Events();
  /** Tickets with writes still to come, as last written. */
  const pending = new Map<TicketId, Ticket>();
  let inserted = 0;
  let writes = 0;

  const apply = async (e: Write) => {
    const t = pending.get(e.id);
    if (t === undefined) throw new Error(`no ticket ${e.id} to write`);
    const at = Math.round(e.at);
    const next: Ticket =
      e.kind === 'delete'
        ? { ...t, deletedAt: at }
        : { ...t, state: e.kind, closedAt: e.kind === 'closed' ? at : null, updatedAt: at };
    if (!(await store.tickets.update({ ...next, version: t.version + 1 }, t.version)))
      throw new Error(`lost write on ${t.id}`);
    writes += 1;
    pending.set(e.id, { ...next, version: t.version + 1 });
  };

  /** Inserts tickets up to `size`, applying every write that falls due before each creation. */
  const growTo = async (size: number) => {
    while (inserted < size) {
      const t = newTicket(inserted + 1);
      while ((events.peek()?.at ?? Infinity) <= t.createdAt) await apply(events.pop());
      await store.tickets.insert(t);
      inserted += 1;
      planLife(t, events);
      pending.set(t.id, t);
    }
    // Forget the tickets that have no write left (the store keeps its own copies).
    const due = new Set(events.items.map((e) => e.id));
    for (const id of pending.keys()) if (!due.has(id)) pending.delete(id);
  };
  return {
    store,
    growTo,
    /** The desk's clock: the newest ticket's creation time. */
    now: () => clock,
    /** Writes applied so far. */
    writes: () => writes,
    typicalCustomer,
    rareWord,
    scarceWord,
    /** The draws that made the data, for the benchmark's own (after the desk's first ones). */
    rng,
  };
};
