import type { EventActor, Group, GroupId } from '@support/domain';
import type { FollowUp } from './follow-ups.js';
import type { Page } from './ticket-repository.js';

export type GroupWriteResult = 'ok' | 'version_mismatch' | 'name_taken';

export interface GroupRepository {
  /** 'name_taken' when another group has the same name, compared without regard to case. */
  insert(group: Group, by?: EventActor): Promise<'ok' | 'name_taken'>;
  findById(id: GroupId): Promise<Group | null>;
  findByIds(ids: readonly GroupId[]): Promise<readonly Group[]>;
  update(group: Group, expectedVersion: number, by?: EventActor): Promise<GroupWriteResult>;
  /**
   * Deletes the group, `now` being when (the change feed's group.deleted), and carries out its
   * follow-ups with it (none when there was no group); `by` is the actor of every event of both.
   */
  delete(id: GroupId, now: number, by?: EventActor, followUps?: readonly FollowUp[]): Promise<boolean>;
  /** Groups by id ascending. */
  list(offset: number, limit: number): Promise<Page<Group>>;
}
