import type { Group } from '@support/domain';
import { representation } from '../resources/field-table.js';
import { groupTable } from '../resources/groups.js';
import type { Urls } from './urls.js';

// A group as the API shows it: the fields of its table (resources/groups.ts), in order.

const full = representation(groupTable);

export const groupRepresentation = (urls: Urls, group: Group): Record<string, unknown> => full({ group, urls });
