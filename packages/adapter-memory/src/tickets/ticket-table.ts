import { sortKey, ticketWords, type SortField, type Ticket } from '@support/domain';
import type { Journal } from '../journal.js';
import { Buckets } from './buckets.js';
import { SortIndexes, type SortKey } from './sort-indexes.js';
import { TicketFacts } from './ticket-facts.js';
import { WordIndex } from './word-index.js';

const isLive = (t: Ticket | undefined): t is Ticket => t !== undefined && t.deletedAt === null;

const sameWords = (a: Ticket, b: Ticket): boolean =>
  a.subject === b.subject && a.summary === b.summary && a.customerName === b.customerName;

const liveWords = (t: Ticket | undefined): string[] => (isLive(t) ? ticketWords(t) : []);

/**
 * Every stored ticket (deleted ones too) and the indexes kept in step with them: the sort
 * indexes, the word index and the customer buckets cover live tickets only (search never
 * sees a deleted one); the customer, assignee and group buckets of every ticket serve the
 * bulk updates. `facts` holds every stored ticket's numeric sort keys by id, so that searches
 * test conditions and order tickets without reading rows.
 */
export class TicketTable {
  private readonly rows: Map<number, Ticket>;
  readonly order: SortIndexes;
  readonly words: WordIndex;
  readonly facts = new TicketFacts();
  readonly liveByCustomer = new Buckets();
  private readonly byCustomer = new Buckets();
  private readonly byAssignee = new Buckets();
  private readonly byGroup = new Buckets();

  constructor(journal: Journal, load: number) {
    this.rows = journal.map('tickets');
    this.order = new SortIndexes((id, field) => this.keyOf(id, field), load);
    this.words = new WordIndex(load);
  }

  get(id: number): Ticket | undefined {
    return this.rows.get(id);
  }

  /** A stored ticket the indexes name; its absence is a bug. */
  row(id: number): Ticket {
    const t = this.rows.get(id);
    if (t === undefined) throw new Error(`ticket ${id} is indexed but not stored`);
    return t;
  }

  /** A stored ticket's sort key for a field: from `facts`, or from the row for text. */
  keyOf(id: number, field: SortField): SortKey {
    const key = this.facts.key(id, field);
    return key === undefined ? sortKey(this.row(id), field) : key;
  }

  get liveCount(): number {
    return this.order.list('id').size;
  }

  /** Stores a ticket (new or replacing the one with its id), moving its index entries. */
  put(next: Ticket): void {
    const old = this.rows.get(next.id);
    this.order.replace(old, next, () => {
      this.rows.set(next.id, next);
      this.facts.put(next);
    });
    if (old === undefined || isLive(old) !== isLive(next) || !sameWords(old, next)) {
      this.words.replace(next.id, liveWords(old), liveWords(next));
    }
    this.liveByCustomer.move(next.id, isLive(old) ? old.customerId : null, isLive(next) ? next.customerId : null);
    this.byCustomer.move(next.id, old?.customerId ?? null, next.customerId);
    this.byAssignee.move(next.id, old?.assignedUserId ?? null, next.assignedUserId);
    this.byGroup.move(next.id, old?.groupId ?? null, next.groupId);
  }

  /** Every ticket of a customer, deleted ones included (a snapshot: safe to `put` while walking it). */
  ofCustomer(customerId: number): number[] {
    return [...this.byCustomer.get(customerId)];
  }

  assignedTo(userId: number): number[] {
    return [...this.byAssignee.get(userId)];
  }

  inGroup(groupId: number): number[] {
    return [...this.byGroup.get(groupId)];
  }
}
