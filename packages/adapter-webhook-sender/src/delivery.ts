import type { WebhookSender } from '@support/application';
import type { StoredEvent, TicketFieldDefinition } from '@support/domain';
import { refusedTarget, sendOutbound, type OutboundOptions } from './sender.js';
import { signDelivery } from './signature.js';

export interface WebhookSenderOptions {
  /**
   * The body of a delivery: the event as the API shows it, compact JSON. The HTTP adapter owns
   * that representation (the same in GET /v1/events); the server hands it over.
   */
  readonly body: (event: StoredEvent, fields: readonly TicketFieldDefinition[]) => string;
  /** Contract §7.4: a delivery succeeds on a 2xx within 10 s. */
  readonly timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: http:// and loopback/private receivers (development and tests). */
  readonly allowPrivate: boolean;
}

/**
 * Webhook deliveries over HTTP(S): one POST per attempt, with the Standard Webhooks headers
 * (webhook-id, webhook-timestamp in Unix seconds, webhook-signature).
 */
export const httpWebhookSender = (options: WebhookSenderOptions): WebhookSender => {
  const outbound: OutboundOptions = {
    timeoutMs: options.timeoutMs,
    allowPrivate: options.allowPrivate,
    maxResponseBytes: 1024,
  };
  return {
    refuses: (url) => refusedTarget(url, outbound),
    send: (target, deliveryId, event, timestamp, fields) => {
      const body = options.body(event, fields);
      const seconds = Math.floor(timestamp / 1000);
      return sendOutbound(
        {
          url: target.url,
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'support-ticket-service-webhooks/1',
            'webhook-id': deliveryId,
            'webhook-timestamp': String(seconds),
            // One signature per secret (after a rotation, the new and the old: contract §11).
            'webhook-signature': target.secrets.map((s) => signDelivery(s, deliveryId, seconds, body)).join(' '),
          },
          body,
        },
        outbound,
      );
    },
  };
};
