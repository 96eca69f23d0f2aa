import type { DeliveryRecord, WebhookRepository } from '@support/application';
import type { Webhook } from '@support/domain';
import { answer } from './answer.js';
import { pageOf } from './page-of.js';
import { SortedList } from './sorted-list.js';

const copyWebhook = (w: Webhook): Webhook => ({ ...w, events: [...w.events] });

interface Lease {
  readonly owner: string;
  readonly until: number;
}

/** Webhooks, their delivery leases and their delivery logs (newest last, trimmed to `keep`). */
export const memoryWebhookRepository = (load: number): WebhookRepository => {
  const rows = new Map<number, Webhook>();
  const ids = new SortedList<number>((a, b) => a - b, load);
  const leases = new Map<number, Lease>();
  const logs = new Map<number, DeliveryRecord[]>();
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
        const log = logs.get(record.webhookId) ?? [];
        log.push({ ...record });
        if (log.length > keep) log.splice(0, log.length - keep);
        logs.set(record.webhookId, log);
      }),
    deliveries: (id, limit) => answer(() => [...(logs.get(id) ?? [])].reverse().slice(0, limit).map((r) => ({ ...r }))),
  };
};
