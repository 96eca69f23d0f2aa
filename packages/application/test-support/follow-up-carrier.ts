import type { EventActor } from '@support/domain';
import { expect } from 'chai';
import type { FollowUp, Store } from '../src/index.js';
import { aUser } from './mothers.js';

let carriers = 0;

/**
 * Carries out follow-ups (ports/follow-ups.ts) the only way a store takes them, with a write:
 * a user made for the purpose (ids from 1,000,000 on, apart from any test's own) and deleted
 * with them at `now`, by `by`. For a test of what an op does to the records it reaches, without
 * the write that would make it due; the feed gets that user's user.created and user.deleted
 * events first.
 */
export const carryOut = async (s: Store, due: readonly FollowUp[], now: number, by?: EventActor): Promise<void> => {
  carriers += 1;
  const carrier = aUser({ id: 1_000_000 + carriers });
  expect(await s.users.insert(carrier)).to.equal('ok');
  expect(await s.users.delete(carrier.id, now, by, due)).to.equal(true);
};
