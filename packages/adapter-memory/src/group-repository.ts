import type { GroupRepository, GroupWriteResult } from '@support/application';
import { groupDeletedEvent, groupEvent, groupNameKey, upgradeGroup, type Group } from '@support/domain';
import { copyGroup } from './copies.js';
import type { ChangeRecorder } from './event-log.js';
import type { MemoryFollowUps } from './follow-ups.js';
import type { Journal } from './journal.js';
import { pageOf } from './page-of.js';
import { SortedList } from './sorted-list.js';

export const memoryGroupRepository = (
  journal: Journal,
  load: number,
  events: ChangeRecorder,
  followUps?: MemoryFollowUps,
): GroupRepository => {
  const rows = journal.map<number, Group>('groups');
  const answer = journal.runner(['groups']);
  // Map: derived: rebuilt by the groups restorer
  const idsByName = new Map<string, number>();
  const ids = new SortedList<number>((a, b) => a - b, load);
  const holderOf = (name: string): number | undefined => idsByName.get(groupNameKey(name));
  const copyOf = (id: number): Group => {
    const g = rows.get(id);
    if (g === undefined) throw new Error(`group ${id} is listed but not stored`);
    return copyGroup(g);
  };
  /** Stores a copy of the group and answers it (the change feed keeps that copy: rows are replaced, never changed). */
  const put = (next: Group): Group => {
    const old = rows.get(next.id);
    if (old === undefined) ids.insert(next.id);
    else idsByName.delete(groupNameKey(old.name));
    idsByName.set(groupNameKey(next.name), next.id);
    const stored = copyGroup(next);
    rows.set(next.id, stored);
    return stored;
  };
  journal.restorer('groups', { upgrade: upgradeGroup, restore: (_, g) => put(g) });
  return {
    insert: (group, by) =>
      answer(() => {
        if (holderOf(group.name) !== undefined) return 'name_taken' as const;
        if (rows.has(group.id)) throw new Error(`group ${group.id} already exists; ids are never reused`);
        const stored = put(group);
        events.record(groupEvent('created', stored, stored.updatedAt, by));
        return 'ok' as const;
      }),
    findById: (id) => answer(() => (rows.has(id) ? copyOf(id) : null)),
    findByIds: (wanted) => answer(() => [...new Set(wanted)].filter((id) => rows.has(id)).map(copyOf)),
    update: (group, expectedVersion, by) =>
      answer((): GroupWriteResult => {
        if (rows.get(group.id)?.version !== expectedVersion) return 'version_mismatch';
        const holder = holderOf(group.name);
        if (holder !== undefined && holder !== group.id) return 'name_taken';
        const stored = put(group);
        events.record(groupEvent('updated', stored, stored.updatedAt, by));
        return 'ok';
      }),
    delete: (id, now, by, due = []) =>
      answer(() => {
        const old = rows.get(id);
        if (old === undefined) return false;
        rows.delete(id);
        ids.remove(id);
        idsByName.delete(groupNameKey(old.name));
        events.record(groupDeletedEvent(id, now, by));
        // Its follow-ups (members out, tickets ungrouped) in this same port call, by the same actor (follow-ups.ts).
        if (due.length > 0) {
          if (followUps === undefined)
            throw new Error('this group table was made without the follow-ups of its writes');
          followUps.run(due, by);
        }
        return true;
      }),
    list: (offset, limit) => answer(() => pageOf(ids, offset, limit, copyOf)),
  };
};
