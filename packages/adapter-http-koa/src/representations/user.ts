import type { UserSnapshot } from '@support/domain';
import { link, timestamp } from './common.js';
import type { Urls } from './urls.js';

/** A user as the API shows it. The password hash never leaves the server. */
export const userRepresentation = (urls: Urls, u: UserSnapshot): Record<string, unknown> => ({
  id: u.id,
  url: urls.user(u.id),
  name: u.name,
  email: u.email,
  role: u.role,
  groups: u.groupIds.map((g) => link(g, urls.group(g))),
  created_at: timestamp(u.createdAt),
  updated_at: timestamp(u.updatedAt),
});
