import { upgrading, type Upgrades } from './upgrade.js';
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

/** What a group stored before a field existed is read back with: one entry per field added since format 1. */
// eslint-disable-next-line @typescript-eslint/no-generated-empty-object-type -- empty until a field is added: then it asks for its default
export const groupUpgrades: Upgrades<Group, 'id' | 'name' | 'description' | 'createdAt' | 'updatedAt' | 'version'> = {};
/** The upgrade step every store reads a stored group through. */
export const upgradeGroup = upgrading<Group, 'id' | 'name' | 'description' | 'createdAt' | 'updatedAt' | 'version'>(
  groupUpgrades,
);
