import { type PageRequest, type Webhook, type WebhookCreateInput, type WebhookId, type WebhookPatchInput, type WebhookReplayInput } from '@support/domain';
import type { Actor } from '../actor.js';
import type { WriteOptions } from '../application.js';
import { type DecodedBody, type DecodedQuery } from '../decoded.js';
import type { DeliveryRecord } from '../ports/webhook-repository.js';
import type { Ports } from '../ports/index.js';
import { type Outcome } from '../shared.js';
import type { ListResult } from '../views.js';
export type WebhookList = ListResult<Webhook>;
export type DeliveryList = ListResult<DeliveryRecord>;
export declare const listWebhooks: (ports: Ports, actor: Actor, decoded: DecodedQuery<PageRequest>) => Promise<Outcome<WebhookList>>;
export declare const getWebhook: (ports: Ports, actor: Actor, id: WebhookId) => Promise<Outcome<Webhook>>;
/**
 * A new webhook starts at the head of the feed: it receives the changes made from now on
 * (a replay reaches back into what the feed keeps).
 */
export declare const createWebhook: (ports: Ports, actor: Actor, decoded: DecodedBody<WebhookCreateInput>) => Promise<Outcome<Webhook>>;
export declare const patchWebhook: (ports: Ports, actor: Actor, id: WebhookId, decoded: DecodedBody<WebhookPatchInput>, options?: WriteOptions<Webhook>) => Promise<Outcome<Webhook>>;
export declare const deleteWebhook: (ports: Ports, actor: Actor, id: WebhookId, options?: WriteOptions<Webhook>) => Promise<Outcome<Webhook>>;
/** A new signing secret; the old one stops signing at once. */
export declare const rotateWebhookSecret: (ports: Ports, actor: Actor, id: WebhookId) => Promise<Outcome<Webhook>>;
/** Re-sends every subscribed event after `after` (at most back to what the feed keeps), and switches the webhook on. */
export declare const replayWebhook: (ports: Ports, actor: Actor, id: WebhookId, decoded: DecodedBody<WebhookReplayInput>) => Promise<Outcome<Webhook>>;
export declare const webhookDeliveries: (ports: Ports, keepLog: number, actor: Actor, id: WebhookId, decoded: DecodedQuery<PageRequest>) => Promise<Outcome<DeliveryList>>;
//# sourceMappingURL=use-cases.d.ts.map