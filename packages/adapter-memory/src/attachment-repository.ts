import type { AttachmentRepository } from '@support/application';
import { attachTo, holdsBytes, isAttachable, type Attachment, type AttachmentId, type Message } from '@support/domain';
import { copyAttachment } from './copies.js';
import { ExpiryQueue } from './expiry-queue.js';
import { storedAsIs, type Journal } from './journal.js';

/**
 * The uploads and attachments in memory, with what their port asks quickly: each uploader's
 * unattached uploads, the expiry queue of uploads, how many records hold each blob. The
 * message repository takes uploads and drops attachments through `attach` and `drop`, inside
 * its own port call, so a message and its attachments change in one commit.
 */
export class AttachmentRecords {
  readonly byId: Map<number, Attachment>;
  // Map: derived: each uploader's unattached uploads, rebuilt by the attachments restorer
  private readonly unattached = new Map<number, Set<number>>();
  private readonly expiries: ExpiryQueue<number>;
  // Map: derived: how many records hold each blob, rebuilt by the attachments restorer
  private readonly holders = new Map<string, number>();

  constructor(journal: Journal, load: number) {
    this.byId = journal.map('attachments');
    this.expiries = new ExpiryQueue<number>(load);
    journal.restorer('attachments', {
      upgrade: storedAsIs<Attachment>,
      restore: (_, a) => {
        this.put(a);
      },
    });
  }

  /** Stores (or replaces) a record and keeps every index in step. */
  put(next: Attachment): void {
    const old = this.byId.get(next.id);
    if (old !== undefined) this.unindex(old);
    this.byId.set(next.id, next);
    if (holdsBytes(next)) this.holders.set(next.blobKey, (this.holders.get(next.blobKey) ?? 0) + 1);
    if (next.message === null && next.deletedAt === null) {
      let set = this.unattached.get(next.uploaderId);
      if (set === undefined) this.unattached.set(next.uploaderId, (set = new Set()));
      set.add(next.id);
      if (next.expiresAt !== null) this.expiries.set(next.id, next.expiresAt);
    }
  }

  remove(id: number): void {
    const old = this.byId.get(id);
    if (old === undefined) return;
    this.unindex(old);
    this.byId.delete(id);
  }

  private unindex(a: Attachment): void {
    if (holdsBytes(a)) {
      const n = (this.holders.get(a.blobKey) ?? 1) - 1;
      if (n === 0) this.holders.delete(a.blobKey);
      else this.holders.set(a.blobKey, n);
    }
    this.unattached.get(a.uploaderId)?.delete(a.id);
    this.expiries.delete(a.id);
  }

  countUnattached(uploader: number, now: number): number {
    let n = 0;
    for (const id of this.unattached.get(uploader) ?? []) if ((this.byId.get(id)?.expiresAt ?? 0) > now) n += 1;
    return n;
  }

  references(blobKey: string): boolean {
    return this.holders.has(blobKey);
  }

  /** The ids of `m`'s attachments its author may not take now. */
  refused(m: Message): AttachmentId[] {
    return m.attachments
      .filter((s) => {
        const a = this.byId.get(s.id);
        return a === undefined || !isAttachable(a, m.authorId, m.createdAt);
      })
      .map((s) => s.id);
  }

  /** `m`'s uploads become its attachments (after `refused` found none). */
  attach(m: Message): void {
    for (const s of m.attachments) {
      const a = this.byId.get(s.id);
      if (a !== undefined) this.put(attachTo(a, { ticketId: m.ticketId, number: m.number }));
    }
  }

  /** The attachments `stored` lists and `next` does not are deleted, at `next.updatedAt`. */
  drop(stored: Message, next: Message): void {
    // A message stored before attachments existed was restored with none (the domain's upgradeMessage).
    for (const s of stored.attachments) {
      if (next.attachments.some((n) => n.id === s.id)) continue;
      const a = this.byId.get(s.id);
      if (a !== undefined && a.deletedAt === null) this.put({ ...a, deletedAt: next.updatedAt });
    }
  }

  /** Up to `limit` unattached uploads whose deadline passed at `now`, earliest first. */
  expired(now: number, limit: number): Attachment[] {
    return this.expiries
      .due(now, limit)
      .map((id) => this.byId.get(id))
      .filter((a): a is Attachment => a !== undefined)
      .map(copyAttachment);
  }
}

export const memoryAttachmentRepository = (journal: Journal, records: AttachmentRecords): AttachmentRepository => {
  const answer = journal.runner(['attachments']);
  return {
    insertUpload: (upload, max) =>
      answer(() => {
        if (records.countUnattached(upload.uploaderId, upload.createdAt) >= max) return false;
        if (records.byId.has(upload.id))
          throw new Error(`attachment ${upload.id} already exists; ids are never reused`);
        records.put(copyAttachment(upload));
        return true;
      }),
    find: (id) =>
      answer(() => {
        const a = records.byId.get(id);
        return a === undefined ? null : copyAttachment(a);
      }),
    countUnattached: (uploader, now) => answer(() => records.countUnattached(uploader, now)),
    references: (key) => answer(() => records.references(key)),
    expired: (now, limit) => answer(() => records.expired(now, limit)),
    removeUpload: (id) =>
      answer(() => {
        const a = records.byId.get(id);
        if (a === undefined || a.message !== null) return false;
        records.remove(id);
        return true;
      }),
  };
};
