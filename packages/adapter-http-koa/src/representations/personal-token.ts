import type { PersonalTokenRecord } from '@support/application';
import { timestamp } from './common.js';
import type { Urls } from './urls.js';

// A personal access token as the API shows it (contract §8.1): never its secret, except in
// the answer that made it (`token`).

export const personalTokenRepresentation = (
  urls: Urls,
  r: PersonalTokenRecord,
  token?: string,
): Record<string, unknown> => ({
  id: r.id,
  url: urls.personalToken(r.userId, r.id),
  name: r.name,
  scopes: [...r.scopes],
  ...(token === undefined ? {} : { token }),
  created_at: timestamp(r.createdAt),
  expires_at: timestamp(r.expiresAt),
  last_used_at: r.lastUsedAt === null ? null : timestamp(r.lastUsedAt),
});
