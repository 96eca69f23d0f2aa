import type { ConsumeResult, Store, TokenRecord } from '../../src/index.js';
import { page, type NaiveState } from './naive-state.js';

/** The naive store's personal and OAuth tokens, rate limits and idempotency records (see naive-store.ts). */
export const accessPorts = (s: NaiveState): Pick<Store, 'personalTokens' | 'tokens' | 'rateLimits' | 'idempotency'> => {
  const { tokens, personal, counters, idempotency } = s;
  return {
    personalTokens: {
      insert: (r, limit) => {
        const live = [...personal.values()].filter((t) => t.userId === r.userId && t.expiresAt > (limit?.now ?? 0));
        if (limit !== undefined && live.length >= limit.maxLive) return Promise.resolve(false);
        personal.set(r.id, structuredClone(r));
        return Promise.resolve(true);
      },
      findByHash: (hash, now) =>
        Promise.resolve(
          structuredClone([...personal.values()].find((r) => r.hash === hash && r.expiresAt > now) ?? null),
        ),
      findById: (id) => Promise.resolve(structuredClone(personal.get(id) ?? null)),
      list: (userId, offset, limit) =>
        page(
          [...personal.values()].filter((r) => r.userId === userId).sort((a, b) => a.id - b.id),
          offset,
          limit,
        ),
      revoke: (id) => Promise.resolve(personal.delete(id)),
      touch: (id, at, intervalMs) => {
        const r = personal.get(id);
        if (r === undefined || (r.lastUsedAt !== null && r.lastUsedAt > at - intervalMs)) return Promise.resolve(false);
        personal.set(id, { ...r, lastUsedAt: at });
        return Promise.resolve(true);
      },
    },
    tokens: {
      save: (r: TokenRecord) => {
        if (!tokens.has(r.hash)) tokens.set(r.hash, { ...r, used: false });
        return Promise.resolve();
      },
      find: (hash, now) => {
        const r = tokens.get(hash);
        if (r === undefined || r.used || r.expiresAt <= now) return Promise.resolve(null);
        const { used: _used, ...record } = r;
        return Promise.resolve(record);
      },
      consume: (hash, now): Promise<ConsumeResult> => {
        const r = tokens.get(hash);
        if (r === undefined || r.expiresAt <= now) return Promise.resolve({ status: 'missing' });
        const { used, ...record } = r;
        if (used) return Promise.resolve({ status: 'reused', record });
        tokens.set(hash, { ...r, used: true });
        return Promise.resolve({ status: 'consumed', record });
      },
      revoke: (hash) => Promise.resolve(void tokens.delete(hash)),
      revokeFamily: (familyId) => {
        for (const [h, r] of tokens) if (r.familyId === familyId) tokens.delete(h);
        return Promise.resolve();
      },
    },
    rateLimits: {
      hit: (key, windowStart) => {
        const k = `${key}@${windowStart}`;
        const n = (counters.get(k) ?? 0) + 1;
        counters.set(k, n);
        return Promise.resolve(n);
      },
      count: (key, windowStart) => Promise.resolve(counters.get(`${key}@${windowStart}`) ?? 0),
    },
    idempotency: {
      claim: (scope, key, c) => {
        const k = `${scope} ${key}`;
        const r = idempotency.get(k);
        if (r !== undefined && r.claim.expiresAt > c.now) {
          if (r.answer !== null)
            return Promise.resolve({ kind: 'completed', fingerprint: r.claim.fingerprint, answer: r.answer });
          if (r.claim.leaseUntil > c.now)
            return Promise.resolve({ kind: 'in_flight', fingerprint: r.claim.fingerprint });
          if (r.written) return Promise.resolve({ kind: 'answer_lost', fingerprint: r.claim.fingerprint });
        }
        idempotency.set(k, { claim: c, answer: null, written: false });
        return Promise.resolve({ kind: 'claimed' });
      },
      // Nothing here is durable: the claim counts as written from the start.
      guard: (scope, key, owner, work) => {
        const r = idempotency.get(`${scope} ${key}`);
        if (r?.claim.owner === owner && r.answer === null) r.written = true;
        return work();
      },
      complete: (scope, key, owner, a) => {
        const r = idempotency.get(`${scope} ${key}`);
        if (r?.claim.owner !== owner || r.answer !== null) return Promise.resolve(false);
        r.answer = a;
        return Promise.resolve(true);
      },
      release: (scope, key, owner) => {
        const k = `${scope} ${key}`;
        const r = idempotency.get(k);
        if (r?.claim.owner === owner && r.answer === null) idempotency.delete(k);
        return Promise.resolve();
      },
    },
  };
};
