import type { FollowUp } from '@support/application';
import type { EventActor } from '@support/domain';

// What the journal of bulk writes records (bulk-writes.ts): each write's intent, its key (a
// newer intent for the same key supersedes an older one), and the record as stored.

/**
 * `by`: who caused the write, the actor of its events (contract §8.3), kept in the journal so
 * that a repair records it too; a journal record written before actors were kept has none and
 * repairs as the service's own change.
 */
export type BulkIntent =
  /**
   * `version`: the user's version that holds `name` (a follow-up of the user's write); journal
   * records older than this field have none.
   */
  | {
      readonly op: 'renameCustomer';
      readonly customerId: number;
      readonly name: string;
      readonly now: number;
      readonly version?: number;
      readonly by?: EventActor;
    }
  | { readonly op: 'unassignUser'; readonly userId: number; readonly now: number; readonly by?: EventActor }
  | { readonly op: 'clearGroup'; readonly groupId: number; readonly now: number; readonly by?: EventActor }
  | { readonly op: 'removeGroup'; readonly groupId: number; readonly now: number; readonly by?: EventActor }
  | { readonly op: 'revokePersonalTokens'; readonly userId: number; readonly exceptToken?: number }
  | { readonly op: 'revokeUser'; readonly userId: number; readonly exceptFamily?: string }
  | { readonly op: 'revokeFamily'; readonly familyId: string };

/** A journal record: the latest intent for its key, when it was recorded (server time), and a mark that tells this record from a later one. */
export interface RepairDocument {
  _id: string;
  intent: BulkIntent;
  mark: string;
  at: Date;
}

/** One journal record per operation and key: a newer intent for the same key supersedes an older one. */
export const keyOf = (i: BulkIntent): string => {
  switch (i.op) {
    case 'renameCustomer':
      return `renameCustomer:${i.customerId}`;
    case 'unassignUser':
    case 'revokeUser':
    case 'revokePersonalTokens':
      return `${i.op}:${i.userId}`;
    case 'clearGroup':
    case 'removeGroup':
      return `${i.op}:${i.groupId}`;
    case 'revokeFamily':
      return `revokeFamily:${i.familyId}`;
  }
};

/** The writes that change resources of the feed, and so run in transactions with their events. */
export const transactional = (i: BulkIntent): boolean =>
  i.op !== 'revokeUser' && i.op !== 'revokePersonalTokens' && i.op !== 'revokeFamily';

/**
 * A write's follow-up as the journal records it: with the write's actor (contract §8.3), so
 * that its events name the request that caused it, also when the repair pass runs it.
 */
export const followUpIntent = (f: FollowUp, by: EventActor | undefined): BulkIntent =>
  by === undefined || f.op === 'revokeUser' || f.op === 'revokePersonalTokens' ? f : { ...f, by };
