import type { DeliveryRecord, WebhookRepository } from '@support/application';
import type { Webhook } from '@support/domain';
import type { Journal } from './journal.js';
import { pageOf } from './page-of.js';
import { SortedList } from './sorted-list.js';

const copyWebhook = (w: Webhook): Webhook => ({ ...w, events: [...w.events] });

interface Lease {
  readonly owner: string;
  readonly until: number;
}

/** Webhooks, their delivery leases and their delivery logs (newest last, trimmed to `keep`). */
export const memoryWebhookRepository = (journal: Journal, load: number): WebhookRepository => {
  const rows = journal.map<number, Webhook>('webhooks');
  const ids = new SortedList<number>((a, b) => a - b, load);
  const leases = journal.map<number, Lease>('leases');
  // A log is replaced, never changed in place: a durable store may still be writing the old one.
  const logs = journal.map<number, readonly DeliveryRecord[]>('deliveries');
  journal.restorer('webhooks', (id, w) => {
    rows.set(id as number, w as Webhook);
    ids.insert(id as number);
  });
  journal.restorer('leases', (id, l) => leases.set(id as number, l as Lease));
  journal.restorer('deliveries', (id, log) => logs.set(id as number, log as readonly DeliveryRecord[]));
  const answer = journal.runner(['webhooks', 'leases', 'deliveries']);
  const copyOf = (id: number): Webhook => {
    const w = rows.get(id);
    if (w === undefined) throw new Error(`webhook ${String(id)} is listed but not stored`);
    return copyWebhook(w);
  };
  return {
    insert: (w) =>
      answer(() => {
        if (rows.has(w.id)) throw new Error(`webhook ${String(w.id)} already exists; ids are never reused`);
        rows.set(w.id, copyWebhook(w));
        ids.insert(w.id);
      }),
    findById: (id) => answer(() => (rows.has(id) ? copyOf(id) : null)),
    list: (offset, limit) => answer(() => pageOf(ids, offset, limit, copyOf)),
    update: (w, expectedVersion) =>
      answer(() => {
        if (rows.get(w.id)?.version !== expectedVersion) return 'version_mismatch' as const;
        rows.set(w.id, copyWebhook(w));
        return 'ok' as const;
      }),
    delete: (id) =>
      answer(() => {
        if (!rows.delete(id)) return false;
        ids.remove(id);
        leases.delete(id);
        logs.delete(id);
        return true;
      }),
    due: (now, limit) =>
      answer(() => {
        const out: Webhook[] = [];
        for (const id of ids.slice(0, ids.size)) {
          const w = rows.get(id);
          if (w?.active === true && (w.nextAttemptAt === null || w.nextAttemptAt <= now)) out.push(copyWebhook(w));
          if (out.length >= limit) break;
        }
        return out;
      }),
    lease: (id, owner, now, until) =>
      answer(() => {
        if (!rows.has(id)) return false;
        const held = leases.get(id);
        if (held !== undefined && held.owner !== owner && held.until > now) return false;
        leases.set(id, { owner, until });
        return true;
      }),
    release: (id, owner) =>
      answer(() => {
        if (leases.get(id)?.owner === owner) leases.delete(id);
      }),
    recordDelivery: (record, keep) =>
      answer(() => {
        if (!rows.has(record.webhookId)) return;
        const log = [...(logs.get(record.webhookId) ?? []), { ...record }];
        logs.set(record.webhookId, log.length > keep ? log.slice(log.length - keep) : log);
      }),
    deliveries: (id, limit) => answer(() => [...(logs.get(id) ?? [])].reverse().slice(0, limit).map((r) => ({ ...r }))),
  };
};
