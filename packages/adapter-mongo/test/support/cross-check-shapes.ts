import type { SortField, SortRule } from '@support/domain';
import { toTicketDocument } from '../../src/documents.js';
import { fixtureTickets } from './fixtures.js';

// What the cross-check (cross-check.test.ts, mongo-sort-order.test.ts) runs on: the fixture
// tickets and their documents, and the sort parameters it tries.

export const tickets = fixtureTickets();
export const docs = tickets.map((t) => toTicketDocument(t));

export type Doc = Record<string, unknown>;
export const asDocs = (ds: readonly object[]): Doc[] => ds as Doc[];

export const sortParams = [
  undefined,
  ...['id', 'subject', 'state', 'priority', 'createdAt', 'updatedAt', 'closedAt'].flatMap((f) => [f, `-${f}`]),
  '-priority,createdAt',
  'state,-priority,subject',
  'closedAt,-subject',
  '-updatedAt,priority',
  'subject,id',
  'priority,-id,subject',
  '-state,closedAt,-createdAt',
];

/** Sort items as the `sort` parameter writes them ('-priority,created_at'). */
export const rulesOf = (sortParam: string | undefined): SortRule[] =>
  (sortParam?.split(',') ?? []).map((item) => ({
    field: item.replace(/^-/, '') as SortField,
    direction: item.startsWith('-') ? 'desc' : 'asc',
  }));
