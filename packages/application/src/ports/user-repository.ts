import type { EventActor, GroupId, User, UserId } from '@support/domain';
import type { FollowUp } from './follow-ups.js';
import type { Page } from './ticket-repository.js';

export type UserWriteResult = 'ok' | 'version_mismatch' | 'email_taken';

export interface UserRepository {
  /** 'email_taken' when another user has the same e-mail, compared without regard to case. */
  insert(user: User, by?: EventActor): Promise<'ok' | 'email_taken'>;
  findById(id: UserId): Promise<User | null>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<User | null>;
  /** The users that exist among these ids, in any order. */
  findByIds(ids: readonly UserId[]): Promise<readonly User[]>;
  /**
   * Replaces the user at `expectedVersion` and carries out its follow-ups with it (none when
   * refused); `by` is the actor of every event of both (contract §8.3).
   */
  update(
    user: User,
    expectedVersion: number,
    by?: EventActor,
    followUps?: readonly FollowUp[],
  ): Promise<UserWriteResult>;
  /** Deletes the user, `now` being when (the change feed's user.deleted), and carries out its follow-ups with it (none when there was no user); `by` as for update. */
  delete(id: UserId, now: number, by?: EventActor, followUps?: readonly FollowUp[]): Promise<boolean>;
  /** Users by id ascending; with a group, only its members. */
  list(groupId: GroupId | null, offset: number, limit: number): Promise<Page<User>>;
  count(): Promise<number>;
}
