import type { GroupId } from './ids.js';
import { revise } from './revision.js';

export interface Group {
  readonly id: GroupId;
  readonly name: string;
  readonly description: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly version: number;
}

export interface GroupChanges {
  readonly name: string;
  readonly description: string;
}

/** Group names are unique without regard to case. */
export const groupNameKey = (name: string): string => name.toLowerCase();

export const applyGroupChanges = (g: Group, c: GroupChanges, now: number): Group =>
  g.name === c.name && g.description === c.description ? g : revise(g, now, c);
