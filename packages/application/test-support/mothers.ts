import { userId, hours, type Spec } from '@support/domain/testing';
import type { TokenRecord } from '../src/index.js';

// The object mothers are one set, the domain's (@support/domain/testing, so the domain's own
// tests can use them too); this module adds the application's records and re-exports them.
export * from '@support/domain/testing';

export type TokenRecordSpec = Spec<TokenRecord, { readonly userId?: number }>;

/**
 * A refresh token record that expires in an hour of real time: stores may forget expired
 * tokens on their own clock (MongoDB's TTL monitor), so test tokens expire in the future.
 */
export const aTokenRecord = (spec: TokenRecordSpec = {}): TokenRecord => ({
  hash: 'a3f1c9e2b7d04f6a8e5c1b9d2f7a6e3c4b8d1f0a9e2c7b6d5f4a3e2c1b0d9f8e',
  kind: 'refresh',
  familyId: 'family-1',
  expiresAt: Date.now() + hours(1),
  ...spec,
  userId: userId(spec.userId ?? 1),
});
