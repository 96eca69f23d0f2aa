import type { EventActor, Group, GroupId } from '@support/domain';
import type { Page } from './ticket-repository.js';

export type GroupWriteResult = 'ok' | 'version_mismatch' | 'name_taken';

export interface GroupRepository {
  /** 'name_taken' when another group has the same name, compared without regard to case. */
  insert(group: Group, by?: EventActor): Promise<'ok' | 'name_taken'>;
  findById(id: GroupId): Promise<Group | null>;
  findByIds(ids: readonly GroupId[]): Promise<readonly Group[]>;
  update(group: Group, expectedVersion: number, by?: EventActor): Promise<GroupWriteResult>;
  /** Deletes the group; `now` is when (the change feed's group.deleted). */
  delete(id: GroupId, now: number, by?: EventActor): Promise<boolean>;
  /** Groups by id ascending. */
  list(offset: number, limit: number): Promise<Page<Group>>;
}
