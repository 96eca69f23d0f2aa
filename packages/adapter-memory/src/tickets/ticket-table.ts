import {
  priorityRank,
  sameCustomValue,
  stateRank,
  ticketWords,
  type CustomValue,
  type Ticket,
  type TicketFieldDefinition,
} from '@support/domain';
import { BigMap } from '../big-map.js';
import { callerTicket, keptRow, ticketOfRow, type TicketRow } from '../copies.js';
import { FieldIndex } from './field-index.js';
import type { Journal } from '../journal.js';
import { CustomColumns } from './custom-columns.js';
import { Buckets } from './buckets.js';
import { IdSets } from './id-set.js';
import { SortIndexes } from './sort-indexes.js';
import { TicketFacts } from './ticket-facts.js';
import { asTicket, TicketOrderings } from './ticket-orderings.js';
import { WordIndex } from './word-index.js';

const isLive = (t: TicketRow | undefined): t is TicketRow => t !== undefined && t.deletedAt === null;

const sameWords = (a: TicketRow, b: TicketRow): boolean =>
  a.subject === b.subject && a.summary === b.summary && a.customerName === b.customerName;

const liveWords = (t: TicketRow | undefined): string[] => (isLive(t) ? ticketWords(t) : []);

/**
 * Every stored ticket (deleted ones too) and the indexes kept in step with them: the sort
 * indexes, the word index and the queue sets (by customer, assignee, group, tag, state,
 * priority: id-set.ts) cover live tickets only (search never sees a deleted one); the customer,
 * assignee and group buckets of every ticket serve the bulk updates. `facts` holds every stored ticket's numeric sort keys by id, so that searches
 * test conditions and order tickets without reading rows. A row holds a ticket but its custom
 * values, which are in `values` (custom-columns.ts, value-columns.ts: a column per field, no object per ticket);
 * the table journals whole tickets (rows with their values), as a tracked map would.
 */
export class TicketTable {
  // Map: journal: the tickets, journalled by `put` with their values (Journal.noteRow)
  private readonly rows = new BigMap<number, TicketRow>();
  private readonly values = new CustomColumns((fieldId, column) => {
    this.custom.get(Number(fieldId))?.useColumn(column);
  });
  readonly order: SortIndexes;
  readonly words: WordIndex;
  readonly facts = new TicketFacts();
  /** Sort keys and comparers of the stored tickets (ticket-orderings.ts). */
  readonly orderings = new TicketOrderings(
    this.facts,
    (id) => this.row(id),
    (fieldId) => this.custom.get(fieldId),
  );
  readonly liveByCustomer: IdSets<number>;
  /** Live tickets by assignee, and by group; key 0: none (ids start at 1). */
  readonly liveByAssignee: IdSets<number>;
  readonly liveByGroup: IdSets<number>;
  /** Live tickets by tag, by state rank and by priority rank. */
  readonly liveByTag: IdSets<string>;
  readonly liveByState: IdSets<number>;
  readonly liveByPriority: IdSets<number>;
  private readonly byCustomer = new Buckets();
  private readonly byAssignee = new Buckets();
  private readonly byGroup = new Buckets();
  /** One index per defined custom field, by its id (field-index.ts). */
  // Map: derived: rebuilt by the ticketFields and tickets restorers
  private readonly custom = new Map<number, FieldIndex>();

  /** `alwaysDense`: every queue set a bitset (see id-set.ts), so that tests reach the bitset paths. */
  constructor(
    private readonly journal: Journal,
    private readonly load: number,
    readonly alwaysDense = false,
  ) {
    this.order = new SortIndexes(
      (id, field) => this.orderings.keyOf(id, field),
      load,
      (fieldId) => this.custom.get(fieldId),
    );
    this.words = new WordIndex(load);
    this.liveByCustomer = new IdSets(alwaysDense);
    this.liveByAssignee = new IdSets(alwaysDense);
    this.liveByGroup = new IdSets(alwaysDense);
    this.liveByTag = new IdSets(alwaysDense);
    this.liveByState = new IdSets(alwaysDense);
    this.liveByPriority = new IdSets(alwaysDense);
  }

  /** A stored ticket with its values (the columns' frozen lists: not for a caller, who gets a `copy`). */
  get(id: number): Ticket | undefined {
    const row = this.rows.get(id);
    return row === undefined ? undefined : this.withValues(row);
  }

  /** A stored ticket for a caller: its own tags and lists. */
  copy(id: number): Ticket {
    const row = this.row(id);
    return callerTicket(row, this.values.callerValues(id));
  }

  /** A stored ticket's row (all but its custom values), or undefined. */
  rowOf(id: number): TicketRow | undefined {
    return this.rows.get(id);
  }

  /** A stored ticket's row that the indexes name; its absence is a bug. */
  row(id: number): TicketRow {
    const t = this.rows.get(id);
    if (t === undefined) throw new Error(`ticket ${id} is indexed but not stored`);
    return t;
  }

  /** A stored ticket the indexes name, with its values (as `get`). */
  ticket(id: number): Ticket {
    return this.withValues(this.row(id));
  }

  private withValues(row: TicketRow): Ticket {
    return ticketOfRow(row, row.tags, Object.freeze(this.values.valuesOf(row.id)));
  }

  /** The index of a defined custom field. */
  field(id: number): FieldIndex | undefined {
    return this.custom.get(id);
  }

  /**
   * Indexes a new custom field (`build`: from the live tickets now; at start, `restored` builds
   * it once every ticket is back), or a changed one whose options changed (rebuilt: a
   * dropdown's sort keys are its options' ranks).
   */
  defineField(def: TicketFieldDefinition, build: boolean): void {
    const old = this.custom.get(def.id);
    if (old !== undefined && JSON.stringify(old.def.options) === JSON.stringify(def.options)) {
      old.redefine(def);
      return;
    }
    const column = this.values.column(String(def.id), def.type);
    const index = new FieldIndex(def, column, this.load, this.alwaysDense);
    this.custom.set(def.id, index);
    if (build) index.build(this.liveIds());
  }

  /** Drops a deleted field's index: its values stay in its column, unseen, until each ticket's next write. */
  dropField(id: number): void {
    this.custom.delete(id);
  }

  private liveIds(): number[] {
    const live: number[] = [];
    for (const t of this.rows.values()) if (isLive(t)) live.push(t.id);
    return live;
  }

  get liveCount(): number {
    return this.order.list('id').size;
  }

  /**
   * Stores a ticket (new or replacing the one with its id), moving its index entries; answers
   * the stored ticket (its values as the columns hold them), which the journal commits.
   */
  put(given: Ticket): Ticket {
    const id = given.id;
    const old = this.rows.get(id);
    const before = old !== undefined && this.journal.durable ? this.withValues(old) : undefined;
    const next = keptRow(given);
    const wasLive = isLive(old);
    const live = isLive(next);
    // The indexes' entries move while the column still holds the old value (their order reads it).
    for (const index of this.custom.values()) {
      const was = wasLive ? index.column.get(id) : undefined;
      const is = live ? given.customFields[index.id] : undefined;
      if (wasLive === live && sameCustomValue(was, is)) continue;
      if (wasLive) index.remove(id, was);
      this.pending.push(index, is);
    }
    this.order.replace(old === undefined ? undefined : asTicket(old), asTicket(next), () => {
      this.store(next, given, false);
    });
    if (live)
      for (let i = 0; i < this.pending.length; i += 2)
        (this.pending[i] as FieldIndex).add(id, this.pending[i + 1] as CustomValue | undefined);
    this.pending.length = 0;
    this.reindex(old, next);
    const stored = this.withValues(next);
    this.journal.noteRow('tickets', id, stored, before);
    return stored;
  }

  /** The custom field indexes a put moves a ticket into (index, value pairs), reused. */
  private readonly pending: unknown[] = [];

  /**
   * Puts back a stored ticket at start, as `put` does but for the sort indexes, which
   * `restored` builds once every ticket is back: sorting once costs a fraction of placing
   * each ticket in turn (a search in each of seven lists).
   */
  restore(stored: Ticket): void {
    if (this.rows.has(stored.id)) throw new Error(`ticket ${stored.id} restored twice`);
    const row = keptRow(stored);
    this.store(row, stored, true);
    this.reindex(undefined, row);
  }

  /** Builds the sort indexes of the restored tickets (see `restore`), every custom field's in one pass over the rows. */
  restored(): void {
    const live: number[] = [];
    const indexes = [...this.custom.values()];
    const fills = indexes.map((index) => index.bulk());
    for (const t of this.rows.values()) {
      if (!isLive(t)) continue;
      live.push(t.id);
      for (let i = 0; i < indexes.length; i++)
        (fills[i] as ReturnType<FieldIndex['bulk']>).take(t.id, (indexes[i] as FieldIndex).column.get(t.id));
    }
    this.order.build(live, (field) => this.orderings.comparer(field));
    for (const fill of fills) fill.end();
    this.words.compact();
    for (const index of indexes) index.words?.compact();
  }

  /** The row, its numeric keys and its values (`fresh`: a restored ticket, which holds none yet). */
  private store(row: TicketRow, given: Ticket, fresh: boolean): void {
    this.rows.set(row.id, row);
    this.facts.put(row);
    this.values.write(row.id, given.customFields, 2 * this.rows.size + 65_536, fresh);
  }

  /** Every index but the sort indexes: the word postings, the queue sets, the buckets. */
  private reindex(old: TicketRow | undefined, next: TicketRow): void {
    if (old === undefined || isLive(old) !== isLive(next) || !sameWords(old, next)) {
      this.words.replace(next.id, liveWords(old), liveWords(next));
    }
    this.moveQueues(old, next);
    this.byCustomer.move(next.id, old?.customerId ?? null, next.customerId);
    this.byAssignee.move(next.id, old?.assignedUserId ?? null, next.assignedUserId);
    this.byGroup.move(next.id, old?.groupId ?? null, next.groupId);
  }

  /** Moves a ticket between the queue sets of its old (if live) and new (if live) values. */
  private moveQueues(old: TicketRow | undefined, next: TicketRow): void {
    const was = isLive(old) ? old : null;
    const is = isLive(next) ? next : null;
    const id = next.id;
    this.liveByCustomer.move(id, was?.customerId ?? null, is?.customerId ?? null);
    this.liveByAssignee.move(
      id,
      was === null ? null : (was.assignedUserId ?? 0),
      is === null ? null : (is.assignedUserId ?? 0),
    );
    this.liveByGroup.move(id, was === null ? null : (was.groupId ?? 0), is === null ? null : (is.groupId ?? 0));
    this.liveByState.move(id, was === null ? null : stateRank(was.state), is === null ? null : stateRank(is.state));
    this.liveByPriority.move(
      id,
      was === null ? null : priorityRank(was.priority),
      is === null ? null : priorityRank(is.priority),
    );
    const oldTags = was?.tags ?? [];
    const newTags = is?.tags ?? [];
    for (const tag of oldTags) if (!newTags.includes(tag)) this.liveByTag.remove(tag, id);
    for (const tag of newTags) if (!oldTags.includes(tag)) this.liveByTag.add(tag, id);
  }

  /** Every ticket of a customer, deleted ones included (a snapshot: safe to `put` while walking it). */
  ofCustomer(customerId: number): number[] {
    return this.byCustomer.ids(customerId);
  }

  assignedTo(userId: number): number[] {
    return this.byAssignee.ids(userId);
  }

  inGroup(groupId: number): number[] {
    return this.byGroup.ids(groupId);
  }
}
