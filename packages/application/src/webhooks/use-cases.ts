import {
  fieldError,
  notFound,
  pageOffset,
  replayFrom,
  revise,
  rotatedSecret,
  validationFailed,
  webhookSecret,
  type PageRequest,
  type Webhook,
  type WebhookChanges,
  type WebhookCreateInput,
  type WebhookId,
  type WebhookPatchInput,
  type WebhookReplayInput,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import { acceptBody, acceptPage, type DecodedBody, type DecodedQuery } from '../decoded.js';
import type { WriteOptions } from '../precondition.js';
import { versionedWrite } from '../versioned-write.js';
import { missingScopes, webhookFeedScopes } from '../idempotency/repeat-access.js';
import { requireRole } from '../policy.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import type { DeliveryList, WebhookList } from '../views.js';

const admin = (actor: Actor): Outcome<null> => {
  const denied = requireRole(actor, ['admin'], 'manage webhooks');
  return denied === null ? E.right(null) : E.left(denied);
};

const load = async (ports: Ports, id: WebhookId): Promise<Outcome<Webhook>> => {
  const w = await ports.webhooks.findById(id);
  return w === null ? E.left(notFound('webhook', id)) : E.right(w);
};

/**
 * An admin's body with a receiver the sender would call (the SSRF guard at the door: a receiver
 * it would refuse is refused now, with its reason). A body that aims the webhook (url, events)
 * needs events:read besides webhooks:manage: a webhook reads the whole feed (contract §11).
 */
const acceptWebhookBody = async <C extends { readonly url?: string; readonly events?: readonly unknown[] }>(
  ports: Ports,
  actor: Actor,
  decoded: DecodedBody<C>,
): Promise<Outcome<C>> => {
  const ok = admin(actor);
  if (E.isLeft(ok)) return ok;
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return input;
  if (input.right.url !== undefined || input.right.events !== undefined) {
    const refused = missingScopes(actor, webhookFeedScopes);
    if (refused !== null) return E.left(refused);
  }
  if (input.right.url === undefined) return input;
  const why = await ports.webhookSender.refuses(input.right.url);
  return why === null ? input : E.left(validationFailed([fieldError('url', 'invalid_value', why)]));
};

export const listWebhooks = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<WebhookList>> => {
  const ok = admin(actor);
  if (E.isLeft(ok)) return ok;
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const found = await ports.webhooks.list(pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const getWebhook = async (ports: Ports, actor: Actor, id: WebhookId): Promise<Outcome<Webhook>> => {
  const ok = admin(actor);
  return E.isLeft(ok) ? ok : load(ports, id);
};

/**
 * A new webhook starts at the head of the feed: it receives the changes made from now on
 * (a replay reaches back into what the feed keeps).
 */
export const createWebhook = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedBody<WebhookCreateInput>,
): Promise<Outcome<Webhook>> => {
  const input = await acceptWebhookBody(ports, actor, decoded);
  if (E.isLeft(input)) return input;
  const now = ports.clock.now();
  const { newest } = await ports.events.bounds();
  const webhook: Webhook = {
    id: (await ports.ids.next('webhook')) as WebhookId,
    url: input.right.url,
    events: input.right.events,
    description: input.right.description ?? '',
    active: input.right.active ?? true,
    secret: webhookSecret(ports.secrets.generate()),
    lastDeliveredSeq: newest,
    failedAttempts: 0,
    nextAttemptAt: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await ports.webhooks.insert(webhook);
  return E.right(webhook);
};

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** A versioned change of a webhook (admins only); `change` null: nothing to change. */
const changeWebhook = (
  ports: Ports,
  actor: Actor,
  id: WebhookId,
  change: (current: Webhook) => Partial<Webhook> | null,
  options: WriteOptions<Webhook>,
): Promise<Outcome<Webhook>> =>
  versionedWrite(
    {
      load: () => getWebhook(ports, actor, id),
      change: (current) => {
        const changed = change(current);
        return E.right(changed === null ? current : revise(current, ports.clock.now(), changed));
      },
      write: async (next, current) => (await ports.webhooks.update(next, current.version)) === 'ok',
    },
    options,
  );

export const patchWebhook = async (
  ports: Ports,
  actor: Actor,
  id: WebhookId,
  decoded: DecodedBody<WebhookPatchInput>,
  options: WriteOptions<Webhook> = {},
): Promise<Outcome<Webhook>> => {
  const input = await acceptWebhookBody(ports, actor, decoded);
  if (E.isLeft(input)) return input;
  const p = input.right;
  return changeWebhook(
    ports,
    actor,
    id,
    (w) => {
      const c: WebhookChanges = {
        url: p.url ?? w.url,
        events: p.events ?? w.events,
        description: p.description === undefined ? w.description : (p.description ?? ''),
        active: p.active ?? w.active,
      };
      if (c.url === w.url && sameList(c.events, w.events) && c.description === w.description && c.active === w.active)
        return null;
      // Switched back on: the event it stopped at gets a fresh retry schedule.
      return c.active && !w.active ? { ...c, failedAttempts: 0, nextAttemptAt: null } : c;
    },
    options,
  );
};

export const deleteWebhook = (
  ports: Ports,
  actor: Actor,
  id: WebhookId,
  options: WriteOptions<Webhook> = {},
): Promise<Outcome<Webhook>> =>
  versionedWrite(
    {
      load: () => getWebhook(ports, actor, id),
      write: async () => (await ports.webhooks.delete(id)) || notFound('webhook', id),
    },
    options,
  );

/** A new signing secret; the old one still signs, beside it, for 24 hours (contract §11). */
export const rotateWebhookSecret = (ports: Ports, actor: Actor, id: WebhookId): Promise<Outcome<Webhook>> =>
  changeWebhook(
    ports,
    actor,
    id,
    (w) => rotatedSecret(w, webhookSecret(ports.secrets.generate()), ports.clock.now()),
    {},
  );

/** Re-sends every subscribed event after `after` (at most back to what the feed keeps), and switches the webhook on. */
export const replayWebhook = async (
  ports: Ports,
  actor: Actor,
  id: WebhookId,
  decoded: DecodedBody<WebhookReplayInput>,
): Promise<Outcome<Webhook>> => {
  const ok = admin(actor);
  if (E.isLeft(ok)) return ok;
  const refused = missingScopes(actor, webhookFeedScopes);
  if (refused !== null) return E.left(refused);
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return input;
  const { newest } = await ports.events.bounds();
  if (input.right.after > newest) {
    return E.left(
      validationFailed([
        fieldError('after', 'invalid_value', `must be at most the newest seq of the feed (${String(newest)})`),
      ]),
    );
  }
  return changeWebhook(ports, actor, id, (w) => replayFrom(w, input.right.after), {});
};

export const listWebhookDeliveries = async (
  ports: Ports,
  keepLog: number,
  actor: Actor,
  id: WebhookId,
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<DeliveryList>> => {
  const ok = admin(actor);
  if (E.isLeft(ok)) return ok;
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const loaded = await load(ports, id);
  if (E.isLeft(loaded)) return loaded;
  // The log is short (the newest attempts only): read whole, then paged.
  const recent = await ports.webhooks.deliveries(id, keepLog);
  const from = pageOffset(page.right);
  return E.right({ items: recent.slice(from, from + page.right.perPage), total: recent.length, page: page.right });
};
