import type { DeliveryRecord, StoredAnswer } from '@support/application';
import type { Message, MessageNumber, TicketId, Webhook, WebhookId } from '@support/domain';
import { aMessage } from '@support/domain/testing';
import { expect } from 'chai';
import { MemoryEventLog } from '../src/event-log.js';
import {
  createMemoryEngine,
  journalTables,
  type ChangeSink,
  type MemoryEngine,
  type RecordChange,
  type RecordKey,
} from '../src/index.js';

// With a durable store underneath, the kept Idempotency-Key answers, the webhook delivery
// logs and the messages are shelved (shelf.ts): written in the port call's commit, then read from the store,
// not held by the memory engine. A fake store here shows it: what the store holds, not what
// memory once held, is what a repeat and a log listing read.

const keyText = (key: RecordKey): string => JSON.stringify(key);

/** A durable store in a map: commits apply on the next turn, or when `open` lets held ones through. */
class FakeDisk implements ChangeSink {
  readonly tables = new Map<string, Map<string, { readonly key: RecordKey; readonly value: unknown }>>();
  private held: (() => void)[] | null = null;

  commit(changes: readonly RecordChange[]): Promise<void> {
    return new Promise((resolve) => {
      const apply = (): void => {
        for (const c of changes) {
          const table =
            this.tables.get(c.table) ?? new Map<string, { readonly key: RecordKey; readonly value: unknown }>();
          this.tables.set(c.table, table);
          if (c.value === undefined) table.delete(keyText(c.key));
          else table.set(keyText(c.key), { key: c.key, value: c.value });
        }
        resolve();
      };
      if (this.held === null) setImmediate(apply);
      else this.held.push(apply);
    });
  }

  /** Commits wait from now on until `open`. */
  hold(): void {
    this.held = [];
  }

  open(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const apply of held) apply();
  }

  readonly read = (table: string, key: RecordKey): unknown => this.tables.get(table)?.get(keyText(key))?.value;

  keys(table: string): string[] {
    return [...(this.tables.get(table)?.keys() ?? [])].sort();
  }

  /** What a restart loads: the tables held in memory, never the shelves. */
  *loaded(): Generator<{ readonly table: string; readonly key: RecordKey; readonly value: unknown }> {
    for (const table of journalTables)
      for (const { key, value } of this.tables.get(table)?.values() ?? []) yield { table, key, value };
  }

  /** Changes a record behind the engine's back. */
  tamper(table: string, key: RecordKey, change: (value: never) => unknown): void {
    const record = this.tables.get(table)?.get(keyText(key));
    if (record === undefined) throw new Error(`no ${table} record ${keyText(key)} on the fake disk`);
    this.tables.get(table)?.set(keyText(key), { key, value: change(record.value as never) });
  }
}

const engineOn = (disk: FakeDisk): MemoryEngine =>
  createMemoryEngine({}, { sink: disk, feed: () => new MemoryEventLog(), read: disk.read });

const now = Date.now();
const claim = (owner: string, at = now) => ({
  owner,
  fingerprint: `fp-${owner}`,
  now: at,
  leaseUntil: at + 60_000,
  expiresAt: at + 1_000,
});
const anAnswer = (text: string): StoredAnswer => ({
  status: 201,
  headers: { Location: '/v1/tickets/7' },
  body: Buffer.from(text),
});
const bodyOf = (outcome: unknown): string => Buffer.from((outcome as { answer: StoredAnswer }).answer.body).toString();

const webhook = (id: number): Webhook => ({
  id: id as WebhookId,
  url: `https://hooks.example.com/${String(id)}`,
  events: ['*'],
  description: '',
  active: true,
  secret: 'whsec_x',
  lastDeliveredSeq: 0,
  failedAttempts: 0,
  nextAttemptAt: null,
  createdAt: now,
  updatedAt: now,
  version: 1,
});
const attempt = (seq: number): DeliveryRecord => ({
  webhookId: 1 as WebhookId,
  seq,
  deliveryId: `msg_${String(seq)}`,
  attempt: 1,
  attemptedAt: now + seq,
  status: 200,
  durationMs: 3,
  error: null,
  response: `ok ${String(seq)}`,
  nextAttemptAt: null,
});

describe('Memory engine on a durable store: kept answers and delivery logs are read from the store', () => {
  it('replays a kept answer from what the store holds, not from memory', async () => {
    const disk = new FakeDisk();
    const { store } = engineOn(disk);
    await store.idempotency.claim('user:1', 'k', claim('a'));
    await store.idempotency.complete('user:1', 'k', 'a', anAnswer('first'));
    expect(disk.keys('answers')).to.deep.equal([keyText(JSON.stringify(['user:1', 'k']))]);
    disk.tamper('answers', JSON.stringify(['user:1', 'k']), (a: StoredAnswer) => ({
      ...a,
      body: Buffer.from('on disk'),
    }));
    expect(bodyOf(await store.idempotency.claim('user:1', 'k', claim('b')))).to.equal('on disk');
  });

  it('holds an answer in memory only until its commit is durable', async () => {
    const disk = new FakeDisk();
    const { store } = engineOn(disk);
    await store.idempotency.claim('user:1', 'k', claim('a'));
    disk.hold();
    const completed = store.idempotency.complete('user:1', 'k', 'a', anAnswer('pending'));
    // Read while the store does not have it yet: memory does, and the repeat waits for the commit.
    const repeat = store.idempotency.claim('user:1', 'k', claim('b'));
    expect(disk.keys('answers')).to.deep.equal([]);
    disk.open();
    expect(await completed).to.equal(true);
    expect(bodyOf(await repeat)).to.equal('pending');
  });

  it('replays after a restart that loads no answer into memory', async () => {
    const disk = new FakeDisk();
    const { store } = engineOn(disk);
    await store.idempotency.claim('user:1', 'k', claim('a'));
    await store.idempotency.complete('user:1', 'k', 'a', anAnswer('kept'));
    const restarted = engineOn(disk);
    restarted.restore(disk.loaded());
    expect(bodyOf(await restarted.store.idempotency.claim('user:1', 'k', claim('b')))).to.equal('kept');
  });

  it('deletes an expired answer from the store', async () => {
    const disk = new FakeDisk();
    const { store } = engineOn(disk);
    await store.idempotency.claim('user:1', 'old', claim('a'));
    await store.idempotency.complete('user:1', 'old', 'a', anAnswer('old'));
    expect(disk.keys('answers')).to.have.length(1);
    // A later claim (past the first one's expiry) forgets it, and the store with it.
    await store.idempotency.claim('user:1', 'new', claim('b', now + 5_000));
    expect(disk.keys('answers')).to.deep.equal([]);
    expect(disk.keys('idempotency')).to.deep.equal([keyText(JSON.stringify(['user:1', 'new']))]);
  });

  it('lists a delivery log from the store, keeps only the newest attempts there, and deletes them with the webhook', async () => {
    const disk = new FakeDisk();
    const { store } = engineOn(disk);
    await store.webhooks.insert(webhook(1));
    for (const seq of [1, 2, 3]) await store.webhooks.recordDelivery(attempt(seq), 2);
    expect(disk.keys('deliveryLog')).to.deep.equal([keyText([1, 2]), keyText([1, 3])]);
    disk.tamper('deliveryLog', [1, 3], (r: DeliveryRecord) => ({ ...r, response: 'on disk' }));
    expect((await store.webhooks.deliveries(1 as WebhookId, 10)).map((r) => r.response)).to.deep.equal([
      'on disk',
      'ok 2',
    ]);
    expect((await store.webhooks.deliveries(1 as WebhookId, 1)).map((r) => r.seq)).to.deep.equal([3]);
    expect(await store.webhooks.delete(1 as WebhookId)).to.equal(true);
    expect(disk.keys('deliveryLog')).to.deep.equal([]);
    expect(disk.keys('deliverySpans')).to.deep.equal([]);
  });

  it('reads a message from the store, holds it only until durable, and lists a restarted thread from the store', async () => {
    const disk = new FakeDisk();
    const { store } = engineOn(disk);
    const ticketId = 7 as TicketId;
    await store.messages.insert(aMessage({ ticketId, number: 1, body: 'first' }));
    disk.hold();
    const second = store.messages.insert(aMessage({ ticketId, number: 2, internal: true }));
    // Not on the disk yet: memory holds it, and a read waits for its commit.
    const listed = store.messages.list(ticketId, true, 0, 10);
    expect(disk.keys('messages')).to.deep.equal([keyText([7, 1])]);
    disk.open();
    expect(await second).to.deep.equal([]);
    expect((await listed).items.map((m) => m.number)).to.deep.equal([1, 2]);
    disk.tamper('messages', [7, 1], (m: Message) => ({ ...m, body: 'on disk' }));
    expect((await store.messages.find(ticketId, 1 as MessageNumber))?.body).to.equal('on disk');
    const restarted = engineOn(disk);
    restarted.restore(disk.loaded());
    const page = await restarted.store.messages.list(ticketId, false, 0, 10);
    expect({ bodies: page.items.map((m) => m.body), total: page.total }).to.deep.equal({
      bodies: ['on disk'],
      total: 1,
    });
    expect((await restarted.store.messages.list(ticketId, true, 0, 10)).total).to.equal(2);
  });
});
