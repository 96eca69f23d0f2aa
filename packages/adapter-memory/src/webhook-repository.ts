import type { DeliveryRecord, WebhookRepository } from '@support/application';
import type { Webhook } from '@support/domain';
import { storedAsIs, type Journal } from './journal.js';
import { pageOf } from './page-of.js';
import { SortedList } from './sorted-list.js';

const copyWebhook = (w: Webhook): Webhook => ({ ...w, events: [...w.events] });

interface Lease {
  readonly owner: string;
  readonly until: number;
}

/** The attempts a webhook's log keeps are numbered `first` to `next - 1` (newest); each is a record of the `deliveryLog` shelf. */
interface Span {
  readonly first: number;
  readonly next: number;
}

/**
 * Webhooks, their delivery leases and their delivery logs (trimmed to the newest `keep`). A
 * log's span is held in memory; its attempts are shelved (on a durable store, read from it
 * when the log is listed, not held in memory).
 */
export const memoryWebhookRepository = (journal: Journal, load: number): WebhookRepository => {
  const rows = journal.map<number, Webhook>('webhooks');
  const ids = new SortedList<number>((a, b) => a - b, load);
  const leases = journal.map<number, Lease>('leases');
  const spans = journal.map<number, Span>('deliverySpans');
  const log = journal.shelf<DeliveryRecord>('deliveryLog');
  journal.restorer('webhooks', {
    upgrade: storedAsIs<Webhook>,
    restore: (id, w) => {
      rows.set(id as number, w);
      ids.insert(id as number);
    },
  });
  journal.restorer('leases', { upgrade: storedAsIs<Lease>, restore: (id, l) => leases.set(id as number, l) });
  journal.restorer('deliverySpans', { upgrade: storedAsIs<Span>, restore: (id, s) => spans.set(id as number, s) });
  const answer = journal.runner(['webhooks', 'leases', 'deliverySpans', 'deliveryLog']);
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
        const span = spans.get(id);
        if (span !== undefined) for (let n = span.first; n < span.next; n += 1) log.delete([id, n]);
        spans.delete(id);
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
        const id = record.webhookId;
        if (!rows.has(id)) return;
        const span = spans.get(id) ?? { first: 1, next: 1 };
        log.set([id, span.next], { ...record });
        const next = span.next + 1;
        let first = span.first;
        for (; next - first > keep; first += 1) log.delete([id, first]);
        spans.set(id, { first, next });
      }),
    deliveries: (id, limit) =>
      answer(() => {
        const out: DeliveryRecord[] = [];
        const span = spans.get(id);
        if (span === undefined) return out;
        for (let n = span.next - 1; n >= span.first && out.length < limit; n -= 1) {
          const r = log.get([id, n]);
          if (r === undefined)
            throw new Error(`attempt ${String(n)} of webhook ${String(id)}'s delivery log is missing`);
          out.push({ ...r });
        }
        return out;
      }),
  };
};
