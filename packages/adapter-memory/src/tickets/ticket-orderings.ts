import { compareKeys, sortFieldId, sortKey, type SortField, type SortRule, type Ticket } from '@support/domain';
import type { TicketRow } from '../copies.js';
import type { FieldIndex } from './field-index.js';
import type { IdOrder } from './id-order.js';
import type { SortKey } from './sort-indexes.js';
import type { TicketFacts } from './ticket-facts.js';

/** A field deleted since: every ticket unset, all equal (compareByRule of two nulls). */
const unordered: IdOrder = () => 0;

/** A row as the domain's sort key of a ticket field reads it (never its custom values). */
export const asTicket = (row: TicketRow): Ticket => row as Ticket;

/**
 * How the ticket table orders stored tickets: a ticket's sort key for a field, the order of two
 * tickets by one field, and by one sort rule. Numbers come from the table's `facts`, text from
 * its rows; a custom field's rule order from the field's index.
 */
export class TicketOrderings {
  /** `row`: a stored ticket's row the indexes name; `field`: a defined custom field's index by id. */
  constructor(
    private readonly facts: TicketFacts,
    private readonly row: (id: number) => TicketRow,
    private readonly field: (fieldId: number) => FieldIndex | undefined,
  ) {}

  /** A stored ticket's sort key for a field: from `facts`, or from the row for text. */
  keyOf(id: number, field: SortField): SortKey {
    const key = this.facts.key(id, field);
    return key === undefined ? (sortKey(asTicket(this.row(id)), field) as SortKey) : key;
  }

  /** The order of two stored tickets by one field (no tie break): the facts' for numbers, the rows' for text. */
  comparer(field: SortField): IdOrder {
    return this.facts.comparer(field) ?? this.bySubject;
  }

  /** Text (the subject): the rows' keys. */
  private readonly bySubject: IdOrder = (a, b) => compareKeys(this.keyOf(a, 'subject'), this.keyOf(b, 'subject'));

  /**
   * The order of two live tickets under one rule, in its direction (a custom field's unset last:
   * compareByRule). Made once per field and direction and kept (a custom field's by its index,
   * which a changed or deleted field replaces or drops): comparers made per search lost their
   * optimised code at every full GC (see FirstIds, id-order.ts).
   */
  ruleComparer(rule: SortRule): IdOrder {
    const fieldId = sortFieldId(rule.field);
    if (fieldId !== null) return this.field(fieldId)?.ruleOrder(rule.direction) ?? unordered;
    const field = rule.field as SortField;
    const kept = rule.direction === 'asc' ? this.ascending : this.descending;
    let order = kept.get(field);
    if (order === undefined) {
      const byField = this.comparer(field);
      order = rule.direction === 'asc' ? byField : (a, b) => byField(b, a);
      kept.set(field, order);
    }
    return order;
  }

  // Map: derived: ruleComparer's comparers of the ticket fields, by direction (made on first use)
  private readonly ascending = new Map<SortField, IdOrder>();
  // Map: derived: as `ascending`
  private readonly descending = new Map<SortField, IdOrder>();
}
