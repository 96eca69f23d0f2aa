import type { UserSnapshot } from '@support/domain';
import { representation } from '../resources/field-table.js';
import { userTable } from '../resources/users.js';
import type { Urls } from './urls.js';

// A user as the API shows it: the fields of its table (resources/users.ts), in order. The
// password hash never leaves the server.

const full = representation(userTable);

export const userRepresentation = (urls: Urls, user: UserSnapshot): Record<string, unknown> => full({ user, urls });
