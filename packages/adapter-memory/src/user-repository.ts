import type { FollowUp, UserRepository, UserWriteResult } from '@support/application';
import {
  emailKey,
  leaveGroup,
  userDeletedEvent,
  userEvent,
  type EventActor,
  type GroupId,
  type User,
  upgradeUser,
} from '@support/domain';
import { copyUser } from './copies.js';
import type { ChangeRecorder } from './event-log.js';
import type { MemoryFollowUps } from './follow-ups.js';
import type { Journal } from './journal.js';
import { pageOf } from './page-of.js';
import { SortedList } from './sorted-list.js';

const byId = (a: number, b: number): number => a - b;

/** Users by id, by e-mail key (unique) and by group (members in id order). */
class UserTable {
  readonly rows: Map<number, User>;
  // Map: derived: rebuilt by the users restorer
  readonly idsByEmail = new Map<string, number>();
  readonly ids: SortedList<number>;
  // Map: derived: rebuilt by the users restorer
  private readonly members = new Map<number, SortedList<number>>();

  constructor(
    journal: Journal,
    private readonly load: number,
  ) {
    this.rows = journal.map('users');
    this.ids = new SortedList<number>(byId, load);
  }

  /** The id of the user holding this e-mail (compared without regard to case), if any. */
  holderOf(email: string): number | undefined {
    return this.idsByEmail.get(emailKey(email));
  }

  membersOf(groupId: number): SortedList<number> | undefined {
    return this.members.get(groupId);
  }

  put(next: User): void {
    const old = this.rows.get(next.id);
    if (old === undefined) this.ids.insert(next.id);
    else this.idsByEmail.delete(emailKey(old.email));
    this.idsByEmail.set(emailKey(next.email), next.id);
    this.rows.set(next.id, next);
    this.moveMembership(next.id, old?.groupIds ?? [], next.groupIds);
  }

  delete(id: number): boolean {
    const old = this.rows.get(id);
    if (old === undefined) return false;
    this.rows.delete(id);
    this.ids.remove(id);
    this.idsByEmail.delete(emailKey(old.email));
    this.moveMembership(id, old.groupIds, []);
    return true;
  }

  private moveMembership(id: number, from: readonly GroupId[], to: readonly GroupId[]): void {
    const keep = new Set(to);
    const had = new Set(from);
    for (const g of had) if (!keep.has(g)) this.leave(g, id);
    for (const g of keep) if (!had.has(g)) this.join(g, id);
  }

  private join(groupId: number, id: number): void {
    let list = this.members.get(groupId);
    if (list === undefined) {
      list = new SortedList<number>(byId, this.load);
      this.members.set(groupId, list);
    }
    list.insert(id);
  }

  private leave(groupId: number, id: number): void {
    const list = this.members.get(groupId);
    list?.remove(id);
    if (list?.size === 0) this.members.delete(groupId);
  }
}

export const memoryUserRepository = (
  journal: Journal,
  load: number,
  events: ChangeRecorder,
  followUps?: MemoryFollowUps,
): UserRepository => {
  const table = new UserTable(journal, load);
  journal.restorer('users', {
    upgrade: upgradeUser,
    restore: (_, u) => {
      table.put(u);
    },
  });
  const answer = journal.runner(['users']);
  // A read of one user waits only for a pending write of that user.
  const answerFor = journal.recordRunner('users');
  const copyOf = (id: number): User => {
    const u = table.rows.get(id);
    if (u === undefined) throw new Error(`user ${id} is listed but not stored`);
    return copyUser(u);
  };
  const removeGroupNow = (groupId: GroupId, now: number, by: EventActor | undefined): void => {
    const left: User[] = [];
    for (const id of [...(table.membersOf(groupId)?.values() ?? [])]) {
      const u = table.rows.get(id);
      if (u === undefined) continue;
      const next = leaveGroup(u, groupId, now);
      table.put(next);
      if (next !== u) left.push(next);
    }
    events.append(left.map((u) => userEvent('updated', u, u.updatedAt, by)));
  };
  // The follow-ups of a user's or group's write run inside that write's port call, by its actor (follow-ups.ts).
  followUps?.on('removeGroup', (f, by) => {
    removeGroupNow(f.groupId, f.now, by);
  });
  const runFollowUps = (due: readonly FollowUp[], by: EventActor | undefined): void => {
    if (due.length > 0) {
      if (followUps === undefined) throw new Error('this user table was made without the follow-ups of its writes');
      followUps.run(due, by);
    }
  };
  return {
    insert: (user, by) =>
      answer(() => {
        if (table.holderOf(user.email) !== undefined) return 'email_taken' as const;
        if (table.rows.has(user.id)) throw new Error(`user ${user.id} already exists; ids are never reused`);
        const stored = copyUser(user);
        table.put(stored);
        events.record(userEvent('created', stored, stored.updatedAt, by));
        return 'ok' as const;
      }),
    findById: (id) => answerFor(id, () => (table.rows.has(id) ? copyOf(id) : null)),
    findByEmail: (email) =>
      answer(() => {
        const id = table.holderOf(email);
        return id === undefined ? null : copyOf(id);
      }),
    findByIds: (ids) => answer(() => [...new Set(ids)].filter((id) => table.rows.has(id)).map(copyOf)),
    update: (user, expectedVersion, by, due = []) =>
      answer((): UserWriteResult => {
        if (table.rows.get(user.id)?.version !== expectedVersion) return 'version_mismatch';
        const holder = table.holderOf(user.email);
        if (holder !== undefined && holder !== user.id) return 'email_taken';
        const stored = copyUser(user);
        table.put(stored);
        events.record(userEvent('updated', stored, stored.updatedAt, by));
        runFollowUps(due, by);
        return 'ok';
      }),
    delete: (id, now, by, due = []) =>
      answer(() => {
        if (!table.delete(id)) return false;
        events.record(userDeletedEvent(id, now, by));
        runFollowUps(due, by);
        return true;
      }),
    list: (groupId, offset, limit) =>
      answer(() => pageOf(groupId === null ? table.ids : table.membersOf(groupId), offset, limit, copyOf)),
    count: () => answer(() => table.rows.size),
  };
};
