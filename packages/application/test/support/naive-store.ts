import {
  compareTickets,
  pageBounds,
  emailKey,
  groupNameKey,
  leaveGroup,
  matchesTicket,
  renameCustomer,
  ticketWords,
  unassignTicket,
  ungroupTicket,
  type Group,
  type Message,
  type Ticket,
  type User,
  type ChangeEvent,
  type StoredEvent,
  type Webhook,
  eventActorId,
  groupDeletedEvent,
  type EventActor,
  groupEvent,
  messageEvent,
  ticketEvent,
  userDeletedEvent,
  userEvent,
} from '@support/domain';
import type {
  ConsumeResult,
  DeliveryRecord,
  FollowUp,
  IdempotencyClaim,
  Page,
  PersonalTokenRecord,
  StoredAnswer,
  Store,
  TokenRecord,
} from '../../src/index.js';

// The simplest store that keeps the ports' promises: arrays, full scans and the domain's
// reference filter and order. Use-case tests run on it; it is no adapter, so the
// application never depends on one.

/** A page of a list; every store refuses (rejects) a page starting past the deepest one. */
const page = <T>(all: readonly T[], offset: number, limit: number): Promise<Page<T>> =>
  offset >= pageBounds.maxOffset
    ? Promise.reject(new RangeError(`a page must start before item ${String(pageBounds.maxOffset)}`))
    : Promise.resolve(structuredClone({ items: all.slice(offset, offset + limit), total: all.length }));

export const naiveStore = (): Store & { failing: boolean } => {
  const tickets = new Map<number, Ticket>();
  const messages = new Map<string, Message>();
  const users = new Map<number, User>();
  const groups = new Map<number, Group>();
  const tokens = new Map<string, TokenRecord & { used: boolean }>();
  const personal = new Map<number, PersonalTokenRecord>();
  const counters = new Map<string, number>();
  const idempotency = new Map<string, { readonly claim: IdempotencyClaim; answer: StoredAnswer | null }>();
  const hooks = new Map<number, Webhook>();
  const hookLeases = new Map<number, { readonly owner: string; readonly until: number }>();
  const deliveries = new Map<number, DeliveryRecord[]>();
  const sequences = new Map<string, number>();
  const mkey = (t: number, n: number): string => `${t}/${n}`;
  const log: StoredEvent[] = [];
  /** Events up to this seq are forgotten (from the oldest on). */
  let forgottenUpTo = 0;
  const wakers = new Set<() => void>();
  const record = (...changes: ChangeEvent[]): void => {
    for (const c of changes) log.push({ seq: log.length + 1, ...c });
    for (const wake of [...wakers]) wake();
  };
  const bumpTickets = (
    pred: (t: Ticket) => boolean,
    change: (t: Ticket) => Ticket,
    by: EventActor | undefined,
  ): void => {
    for (const t of [...tickets.values()]) {
      if (!pred(t)) continue;
      const next = change(t);
      tickets.set(t.id, next);
      if (next.deletedAt === null) record(ticketEvent('updated', next, next.updatedAt, by));
    }
  };
  /** A write's follow-ups in the write's own step (every call of this store is synchronous). */
  const followUp = (due: readonly FollowUp[] = [], by?: EventActor): void => {
    for (const f of due) {
      if (f.op === 'renameCustomer') void store.tickets.renameCustomer(f.customerId, f.name, f.now, by);
      else if (f.op === 'unassignUser') void store.tickets.unassignUser(f.userId, f.now, by);
      else if (f.op === 'clearGroup') void store.tickets.clearGroup(f.groupId, f.now, by);
      else if (f.op === 'removeGroup') void store.users.removeGroup(f.groupId, f.now, by);
      else if (f.op === 'revokePersonalTokens') void store.personalTokens.revokeUser(f.userId);
      else void store.tokens.revokeUser(f.userId);
    }
  };
  const store: Store & { failing: boolean } = {
    failing: false,
    tickets: {
      insert: (t: Ticket, by?: EventActor) => {
        tickets.set(t.id, structuredClone(t));
        record(ticketEvent('created', t, t.updatedAt, by));
        return Promise.resolve();
      },
      findById: (id: number) => Promise.resolve(structuredClone(tickets.get(id) ?? null)),
      update: (t: Ticket, v: number, by?: EventActor) => {
        if (tickets.get(t.id)?.version !== v) return Promise.resolve(false);
        tickets.set(t.id, structuredClone(t));
        record(ticketEvent('updated', t, t.updatedAt, by));
        return Promise.resolve(true);
      },
      search: (filter, sort, offset, limit) => {
        const all = [...tickets.values()]
          .filter((t) => matchesTicket(filter, t, new Set(ticketWords(t))))
          .sort(compareTickets(sort));
        return page(all, offset, limit);
      },
      renameCustomer: (id, name, now, by) => {
        bumpTickets(
          (t) => t.customerId === id && t.customerName !== name,
          (t) => renameCustomer(t, name, now),
          by,
        );
        return Promise.resolve();
      },
      unassignUser: (id, now, by) => {
        bumpTickets(
          (t) => t.assignedUserId === id,
          (t) => unassignTicket(t, now),
          by,
        );
        return Promise.resolve();
      },
      clearGroup: (id, now, by) => {
        bumpTickets(
          (t) => t.groupId === id,
          (t) => ungroupTicket(t, now),
          by,
        );
        return Promise.resolve();
      },
    },
    messages: {
      insert: (m: Message, by?: EventActor) => {
        messages.set(mkey(m.ticketId, m.number), m);
        record(messageEvent('created', m, m.updatedAt, by));
        return Promise.resolve();
      },
      find: (t, n) => Promise.resolve(messages.get(mkey(t, n)) ?? null),
      update: (m: Message, v: number, by?: EventActor) => {
        if (messages.get(mkey(m.ticketId, m.number))?.version !== v) return Promise.resolve(false);
        messages.set(mkey(m.ticketId, m.number), m);
        record(messageEvent('updated', m, m.updatedAt, by));
        return Promise.resolve(true);
      },
      list: (ticketId, internal, offset, limit) => {
        const all = [...messages.values()]
          .filter((m) => m.ticketId === ticketId && m.deletedAt === null && (internal || !m.internal))
          .sort((a, b) => a.number - b.number);
        return page(all, offset, limit);
      },
    },
    users: {
      insert: (u: User, by?: EventActor) => {
        if ([...users.values()].some((x) => emailKey(x.email) === emailKey(u.email)))
          return Promise.resolve('email_taken' as const);
        users.set(u.id, u);
        record(userEvent('created', u, u.updatedAt, by));
        return Promise.resolve('ok' as const);
      },
      findById: (id) => Promise.resolve(users.get(id) ?? null),
      findByEmail: (email) =>
        Promise.resolve([...users.values()].find((u) => emailKey(u.email) === emailKey(email)) ?? null),
      findByIds: (ids) => Promise.resolve([...users.values()].filter((u) => ids.includes(u.id))),
      update: (u: User, v: number, by?: EventActor, due?: readonly FollowUp[]) => {
        if (users.get(u.id)?.version !== v) return Promise.resolve('version_mismatch' as const);
        if ([...users.values()].some((x) => x.id !== u.id && emailKey(x.email) === emailKey(u.email)))
          return Promise.resolve('email_taken' as const);
        users.set(u.id, u);
        record(userEvent('updated', u, u.updatedAt, by));
        followUp(due, by);
        return Promise.resolve('ok' as const);
      },
      delete: (id, now, by, due) => {
        if (!users.delete(id)) return Promise.resolve(false);
        record(userDeletedEvent(id, now, by));
        followUp(due, by);
        return Promise.resolve(true);
      },
      list: (groupId, offset, limit) => {
        const all = [...users.values()]
          .filter((u) => groupId === null || u.groupIds.includes(groupId))
          .sort((a, b) => a.id - b.id);
        return page(all, offset, limit);
      },
      count: () => Promise.resolve(users.size),
      removeGroup: (groupId, now, by) => {
        for (const u of users.values()) {
          if (!u.groupIds.includes(groupId)) continue;
          const next = leaveGroup(u, groupId, now);
          users.set(u.id, next);
          record(userEvent('updated', next, next.updatedAt, by));
        }
        return Promise.resolve();
      },
    },
    groups: {
      insert: (g: Group, by?: EventActor) => {
        if ([...groups.values()].some((x) => groupNameKey(x.name) === groupNameKey(g.name)))
          return Promise.resolve('name_taken' as const);
        groups.set(g.id, g);
        record(groupEvent('created', g, g.updatedAt, by));
        return Promise.resolve('ok' as const);
      },
      findById: (id) => Promise.resolve(groups.get(id) ?? null),
      findByIds: (ids) => Promise.resolve([...groups.values()].filter((g) => ids.includes(g.id))),
      update: (g: Group, v: number, by?: EventActor) => {
        if (groups.get(g.id)?.version !== v) return Promise.resolve('version_mismatch' as const);
        if ([...groups.values()].some((x) => x.id !== g.id && groupNameKey(x.name) === groupNameKey(g.name)))
          return Promise.resolve('name_taken' as const);
        groups.set(g.id, g);
        record(groupEvent('updated', g, g.updatedAt, by));
        return Promise.resolve('ok' as const);
      },
      delete: (id, now, by, due) => {
        if (!groups.delete(id)) return Promise.resolve(false);
        record(groupDeletedEvent(id, now, by));
        followUp(due, by);
        return Promise.resolve(true);
      },
      list: (offset, limit) =>
        page(
          [...groups.values()].sort((a, b) => a.id - b.id),
          offset,
          limit,
        ),
    },
    personalTokens: {
      insert: (r) => {
        personal.set(r.id, structuredClone(r));
        return Promise.resolve();
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
      revokeUser: (userId) => {
        for (const r of [...personal.values()]) if (r.userId === userId) personal.delete(r.id);
        return Promise.resolve();
      },
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
      revokeUser: (userId) => {
        for (const [h, r] of tokens) if (r.userId === userId) tokens.delete(h);
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
        }
        idempotency.set(k, { claim: c, answer: null });
        return Promise.resolve({ kind: 'claimed' });
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
    events: {
      after: (after, limit, actorId) =>
        Promise.resolve(
          log
            .filter(
              (e) =>
                e.seq > Math.max(after, forgottenUpTo) && (actorId === undefined || eventActorId(e.actor) === actorId),
            )
            .slice(0, limit),
        ),
      bounds: () =>
        Promise.resolve({ oldest: forgottenUpTo < log.length ? forgottenUpTo + 1 : null, newest: log.length }),
      waitFor: (after, signal) =>
        log.length > after || signal.aborted
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              const wake = (): void => {
                wakers.delete(wake);
                signal.removeEventListener('abort', wake);
                resolve();
              };
              wakers.add(wake);
              signal.addEventListener('abort', wake, { once: true });
            }),
      forget: (before) => {
        while (forgottenUpTo < log.length && (log[forgottenUpTo]?.occurredAt ?? Infinity) < before) forgottenUpTo += 1;
        return Promise.resolve();
      },
    },
    webhooks: {
      insert: (w) => Promise.resolve(void hooks.set(w.id, w)),
      findById: (id) => Promise.resolve(hooks.get(id) ?? null),
      list: (offset, limit) => {
        const all = [...hooks.values()].sort((a, b) => a.id - b.id);
        return Promise.resolve({ items: all.slice(offset, offset + limit), total: all.length });
      },
      update: (w, v) => {
        if (hooks.get(w.id)?.version !== v) return Promise.resolve('version_mismatch');
        hooks.set(w.id, w);
        return Promise.resolve('ok');
      },
      delete: (id) => {
        deliveries.delete(id);
        return Promise.resolve(hooks.delete(id));
      },
      due: (now, limit) =>
        Promise.resolve(
          [...hooks.values()]
            .filter((w) => w.active && (w.nextAttemptAt === null || w.nextAttemptAt <= now))
            .sort((a, b) => a.id - b.id)
            .slice(0, limit),
        ),
      lease: (id, owner, now, until) => {
        const held = hookLeases.get(id);
        if (!hooks.has(id) || (held !== undefined && held.owner !== owner && held.until > now))
          return Promise.resolve(false);
        hookLeases.set(id, { owner, until });
        return Promise.resolve(true);
      },
      release: (id, owner) => {
        if (hookLeases.get(id)?.owner === owner) hookLeases.delete(id);
        return Promise.resolve();
      },
      recordDelivery: (r, keep) => {
        if (hooks.has(r.webhookId))
          deliveries.set(r.webhookId, [...(deliveries.get(r.webhookId) ?? []), r].slice(-keep));
        return Promise.resolve();
      },
      deliveries: (id, limit) => Promise.resolve([...(deliveries.get(id) ?? [])].reverse().slice(0, limit)),
    },
    ids: {
      next: (name) => {
        const n = (sequences.get(name) ?? 0) + 1;
        sequences.set(name, n);
        return Promise.resolve(n);
      },
    },
    health: { ping: (): Promise<boolean> => Promise.resolve(!store.failing) },
  };
  return store;
};
