import {
  copyCustomValues,
  distinctWords,
  priorityRank,
  stateRank,
  ticketUpgrades,
  ticketWords,
  tokenize,
  type CustomValues,
  type GroupId,
  type Priority,
  type Ticket,
  type TicketFieldAdded,
  type TicketId,
  type TicketState,
  type UserId,
} from '@support/domain';
import { fromDateOrNull, toDate, toDateOrNull } from './dates.js';
import { cfEntries, customFieldWords, type CfEntry } from './custom-field-documents.js';

// How a ticket is laid out in MongoDB (documents.ts says why dates are Dates and ids are `_id`).
export interface TicketDocument {
  _id: number;
  subject: string;
  summary: string;
  state: TicketState;
  /** open 0, pending 1, closed 2: sorting by state sorts by this. */
  stateRank: number;
  priority: Priority;
  /** low 0 ... urgent 3: sorting by priority sorts by this. */
  priorityRank: number;
  customerId: number;
  customerName: string;
  assignedUserId: number | null;
  groupId: number | null;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  deletedAt: Date | null;
  /** deletedAt !== null, kept as a boolean so every list index can start with one equality point. */
  deleted: boolean;
  version: number;
  /** The domain's `ticketWords` (subject, summary and customer name): what `q` looks up. Multikey index. */
  words: string[];
  /** The words of subject and summary alone (and of text custom fields), so a customer rename can rebuild `words` in the database. */
  textWords: string[];
  /** Custom field values by field id, as the ticket keeps them (contract §10); absent on a ticket stored before them. */
  customFields: CustomValues;
  /**
   * The same values in the attribute pattern, one entry per value (a multiselect: one per
   * option held) under one compound multikey index {cf.k, cf.v, ...}: what `cf.<key>` filters
   * and counts read.
   */
  cf: CfEntry[];
}

/** `textFields`: the ids of the text, textarea and regexp fields, whose words `q` finds. */
export type { CfEntry } from './custom-field-documents.js';

export const toTicketDocument = (t: Ticket, textFields: ReadonlySet<number> = new Set()): TicketDocument => {
  const fieldWords = customFieldWords(t.customFields, textFields);
  const textWords = [...distinctWords(t.subject, t.summary), ...fieldWords];
  return {
    _id: t.id,
    subject: t.subject,
    summary: t.summary,
    state: t.state,
    stateRank: stateRank(t.state),
    priority: t.priority,
    priorityRank: priorityRank(t.priority),
    customerId: t.customerId,
    customerName: t.customerName,
    assignedUserId: t.assignedUserId,
    groupId: t.groupId,
    tags: [...t.tags],
    createdAt: toDate(t.createdAt),
    updatedAt: toDate(t.updatedAt),
    closedAt: toDateOrNull(t.closedAt),
    deletedAt: toDateOrNull(t.deletedAt),
    deleted: t.deletedAt !== null,
    version: t.version,
    words: [...ticketWords(t), ...fieldWords],
    textWords,
    customFields: copyCustomValues(t.customFields),
    cf: cfEntries(t.customFields),
  };
};

/** The fields a ticket is read back from: the search words and the attribute entries stay in the database. */
export const ticketProjection = { words: 0, textWords: 0, cf: 0 } as const;

/** A ticket document as read back: one written before a field was added lacks it (fromTicketDocument upgrades it). */
export type StoredTicket = Omit<TicketDocument, 'words' | 'textWords' | 'cf' | TicketFieldAdded> &
  Partial<Pick<TicketDocument, TicketFieldAdded & keyof TicketDocument>>;

// Every field of a ticket has its place in the document (its id as _id): a field added to
// Ticket and not here fails the build, naming itself.
type NotInDocument = Exclude<keyof Ticket, keyof TicketDocument | 'id'>;
export const everyTicketFieldIsStored: [NotInDocument] extends [never] ? true : NotInDocument = true;

/**
 * A field added since the first format may be absent from an older document: it reads
 * `d.<field> === undefined ? ticketUpgrades.<field> : ...` (the domain's upgrade default); the
 * Ticket literal makes leaving a field out a build error.
 */
export const fromTicketDocument = (d: StoredTicket): Ticket => ({
  id: d._id as TicketId,
  subject: d.subject,
  summary: d.summary,
  state: d.state,
  priority: d.priority,
  customerId: d.customerId as UserId,
  customerName: d.customerName,
  assignedUserId: d.assignedUserId as UserId | null,
  groupId: d.groupId as GroupId | null,
  tags: d.tags,
  customFields: d.customFields === undefined ? ticketUpgrades.customFields : copyCustomValues(d.customFields),
  createdAt: d.createdAt.getTime(),
  updatedAt: d.updatedAt.getTime(),
  closedAt: fromDateOrNull(d.closedAt),
  deletedAt: fromDateOrNull(d.deletedAt),
  version: d.version,
});

/** The search words of a customer name, as the tokenizer folds them. */
export const nameWords = (name: string): string[] => [...new Set(tokenize(name))];
