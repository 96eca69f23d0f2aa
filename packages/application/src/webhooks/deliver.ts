import { afterAttempt, deliveryId, revise, subscribesTo, type StoredEvent, type Webhook } from '@support/domain';
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
const saveState = async (ports: Ports, owner: Webhook, state: Pick<Webhook, 'lastDeliveredSeq' | 'failedAttempts' | 'nextAttemptAt' | 'active'>): Promise<void> => {
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
    if (last !== undefined) await saveState(ports, w, { lastDeliveredSeq: last.seq, failedAttempts: 0, nextAttemptAt: null, active: true });
    return false;
  }
  const id = deliveryId(w.id, next.seq);
  const attemptedAt = ports.clock.now();
  const result = await ports.webhookSender.send({ url: w.url, secret: w.secret }, id, next, attemptedAt);
  const after = afterAttempt(w, next.seq, { delivered: isDelivered(result.status) }, ports.clock.now(), config.retrySeconds);
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
 * A round of webhook deliveries (contract §7.4): every active webhook that is due gets its next
 * subscribed event, in seq order, at least once. A webhook is served by one process at a time
 * (a lease in the store), so a restart or a second process neither loses nor doubles an
 * attempt; a lease left by a dead process runs out and another takes over. Answers how many
 * attempts were made.
 */
export const deliverDue = async (ports: Ports, config: DeliveryConfig, owner: string): Promise<number> => {
  const now = ports.clock.now();
  const due = await ports.webhooks.due(now, config.batch);
  if (due.length === 0) return 0;
  const { newest } = await ports.events.bounds();
  const attempts = await Promise.all(
    // A webhook at the head of the feed has nothing to do: no lease taken, no write.
    due.filter((w) => w.lastDeliveredSeq < newest).map(async (candidate) => {
      if (!(await ports.webhooks.lease(candidate.id, owner, now, now + config.leaseSeconds * 1000))) return 0;
      try {
        // Read again under the lease: another process may have served it just before.
        const w = await ports.webhooks.findById(candidate.id);
        if (w === null || !w.active || (w.nextAttemptAt !== null && w.nextAttemptAt > ports.clock.now())) return 0;
        return (await serveWebhook(ports, config, w)) ? 1 : 0;
      } finally {
        await ports.webhooks.release(candidate.id, owner);
      }
    }),
  );
  return attempts.reduce<number>((a, b) => a + b, 0);
};
