import { eventActorId } from '@support/domain';
import type { Store } from '../../src/index.js';
import type { NaiveState } from './naive-state.js';

/** The naive store's change feed, webhooks and id sequences (see naive-store.ts). */
export const feedPorts = (s: NaiveState): Pick<Store, 'events' | 'webhooks' | 'ids'> => {
  const { hooks, hookLeases, deliveries, sequences, log, wakers } = s;
  /** Events up to this seq are forgotten (from the oldest on). */
  let forgottenUpTo = 0;
  return {
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
  };
};
