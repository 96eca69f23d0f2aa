import type { Group } from '@support/domain';
import { timestamp } from './common.js';
import type { Urls } from './urls.js';

export const groupRepresentation = (urls: Urls, g: Group): Record<string, unknown> => ({
  id: g.id,
  url: urls.group(g.id),
  name: g.name,
  description: g.description,
  users_url: urls.groupUsers(g.id),
  created_at: timestamp(g.createdAt),
  updated_at: timestamp(g.updatedAt),
});
