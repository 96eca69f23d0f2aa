import {
  afterAttempt,
  deliveryId,
  revise,
  signingSecrets,
  subscribesTo,
  type StoredEvent,
  type Webhook,
  type WebhookId,
} from '@support/domain';
import type { Ports } from '../ports/index.js';

export interface DeliveryConfig {
  /** WEBHOOK_RETRY_S: seconds before each retry after a failure; then the webhook is switched off. */
  readonly retrySeconds: readonly number[];
  /** How long a process holds a webhook while delivering to it (longer than an attempt can take). */
  readonly leaseSeconds: number;
  /** Webhooks served per round; each gets at most one attempt in flight (bounded concurrency). */
  readonly batch: number;
  /** Attempts kept in each webhook's delivery log. */
  readonly keepLog: number;
}

/** How many feed events a round reads after a webhook's cursor to find the next it subscribed to. */
const scanLimit = 100;

const isDelivered = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

/**
 * Writes the delivery state onto the webhook as it is now: an admin may have changed it
 * meanwhile (its url, events, active), which the delivery keeps, unless the admin's change
 * moved the cursor (a replay), which then wins.
 */
const saveState = async (
  ports: Ports,
  owner: Webhook,
  state: Pick<Webhook, 'lastDeliveredSeq' | 'failedAttempts' | 'nextAttemptAt' | 'active'>,
): Promise<void> => {
  let current: Webhook | null = owner;
  for (let i = 0; i < 16 && current !== null; i++) {
    if (current.lastDeliveredSeq !== owner.lastDeliveredSeq) return;
    const switchedOff = !state.active && owner.active;
    const next = revise(current, ports.clock.now(), {
      lastDeliveredSeq: state.lastDeliveredSeq,
      failedAttempts: state.failedAttempts,
      nextAttemptAt: state.nextAttemptAt,
      active: switchedOff ? false : current.active,
    });
    if ((await ports.webhooks.update(next, current.version)) === 'ok') return;
    current = await ports.webhooks.findById(owner.id);
  }
};

/** One step for one webhook: deliver its next subscribed event once, or move past events it did not subscribe to. */
const serveWebhook = async (ports: Ports, config: DeliveryConfig, w: Webhook): Promise<boolean> => {
  const events = await ports.events.after(w.lastDeliveredSeq, scanLimit);
  const next: StoredEvent | undefined = events.find((e) => subscribesTo(w.events, e.type));
  if (next === undefined) {
    const last = events[events.length - 1];
    if (last === undefined) return false;
    await saveState(ports, w, { lastDeliveredSeq: last.seq, failedAttempts: 0, nextAttemptAt: null, active: true });
    return true;
  }
  const id = deliveryId(w.id, next.seq);
  const attemptedAt = ports.clock.now();
  const fields = await ports.ticketFields.list();
  const result = await ports.webhookSender.send(
    { url: w.url, secrets: signingSecrets(w, attemptedAt) },
    id,
    next,
    attemptedAt,
    fields,
  );
  const after = afterAttempt(
    w,
    next.seq,
    { delivered: isDelivered(result.status) },
    ports.clock.now(),
    config.retrySeconds,
  );
  await ports.webhooks.recordDelivery(
    {
      webhookId: w.id,
      seq: next.seq,
      deliveryId: id,
      attempt: w.failedAttempts + 1,
      attemptedAt,
      status: result.status,
      durationMs: result.durationMs,
      error: result.error ?? (isDelivered(result.status) ? null : `the receiver answered ${String(result.status)}`),
      response: result.response,
      nextAttemptAt: after.active ? after.nextAttemptAt : null,
    },
    config.keepLog,
  );
  await saveState(ports, w, after);
  return true;
};

/**
 * The webhooks with something to do now: active, due (no retry waiting for later) and behind
 * the head of the feed. A webhook at the head costs nothing here: no lease, no write.
 */
export const dueWebhooks = async (ports: Ports, config: DeliveryConfig): Promise<readonly WebhookId[]> => {
  const due = await ports.webhooks.due(ports.clock.now(), config.batch);
  if (due.length === 0) return [];
  const { newest } = await ports.events.bounds();
  return due.filter((w) => w.lastDeliveredSeq < newest).map((w) => w.id);
};

/**
 * One step for one webhook (contract §7.4): its next subscribed event delivered once, or the
 * events it did not subscribe to passed over. A webhook is served by one process at a time
 * (a lease in the store), so a restart or a second process neither loses nor doubles an
 * attempt; a lease left by a dead process runs out and another takes over. Answers whether
 * it made progress (an attempt, or the cursor moved).
 */
export const deliverNext = async (
  ports: Ports,
  config: DeliveryConfig,
  owner: string,
  id: WebhookId,
): Promise<boolean> => {
  const now = ports.clock.now();
  if (!(await ports.webhooks.lease(id, owner, now, now + config.leaseSeconds * 1000))) return false;
  try {
    // Read again under the lease: another process may have served it just before.
    const w = await ports.webhooks.findById(id);
    if (w === null || !w.active || (w.nextAttemptAt !== null && w.nextAttemptAt > ports.clock.now())) return false;
    return await serveWebhook(ports, config, w);
  } finally {
    await ports.webhooks.release(id, owner);
  }
};

/** A round: one step for every webhook with something to do, side by side; answers how many made progress. */
export const deliverDue = async (ports: Ports, config: DeliveryConfig, owner: string): Promise<number> => {
  const ids = await dueWebhooks(ports, config);
  const progress = await Promise.all(ids.map((id) => deliverNext(ports, config, owner, id)));
  return progress.filter(Boolean).length;
};
