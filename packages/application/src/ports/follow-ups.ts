import type { GroupId, UserId } from '@support/domain';

/**
 * A change that a write of a user or group makes to other records through a reference: a
 * renamed customer's name on their tickets, a deleted or demoted user's assignments and
 * sessions, a deleted group on its tickets and members. The application decides which are
 * due (users/use-cases.ts, groups/use-cases.ts) and hands them to the write's port, which
 * carries them out with the write: once the write has answered, they are done. A store that
 * cannot do both in one step (MongoDB: the follow-ups reach any number of documents, in
 * batches) records them in the write's own commit and finishes them after a failure or a
 * crash; a refused write (version mismatch, e-mail taken, nothing to delete) records none.
 * Each is idempotent: running it again changes only what an interrupted run missed. The events a
 * follow-up makes carry the actor of the write that made it due (the port call's `by`, contract
 * §8.3), also when a store finishes it after a crash (the store keeps the actor with it).
 */
export type FollowUp =
  /**
   * The customer's name as of the user's `version` on every ticket of theirs (the domain's
   * renameCustomer at `now`). Run late, or racing another rename, it puts the newest name:
   * the user's current one when the user is stored with this version or a later one.
   */
  | {
      readonly op: 'renameCustomer';
      readonly customerId: UserId;
      readonly name: string;
      readonly version: number;
      readonly now: number;
    }
  /** No ticket stays assigned to this user (the domain's unassignTicket on each, at `now`). */
  | { readonly op: 'unassignUser'; readonly userId: UserId; readonly now: number }
  /** Every login token of this user is revoked, but those of the login `exceptFamily` (an own password change's, contract §11). */
  | { readonly op: 'revokeUser'; readonly userId: UserId; readonly exceptFamily?: string }
  /** Every personal access token of this user is revoked (contract §8.1), but `exceptToken` (an own password change's, §11). */
  | { readonly op: 'revokePersonalTokens'; readonly userId: UserId; readonly exceptToken?: number }
  /** No ticket stays in this group (the domain's ungroupTicket on each, at `now`). */
  | { readonly op: 'clearGroup'; readonly groupId: GroupId; readonly now: number }
  /** No user stays a member of this group (the domain's leaveGroup on each, at `now`). */
  | { readonly op: 'removeGroup'; readonly groupId: GroupId; readonly now: number };
