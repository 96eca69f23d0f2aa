import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import { deliverDue, deliverNext, dueWebhooks, type DeliveryConfig } from './deliver.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  patchWebhook,
  replayWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
} from './use-cases.js';

/** The webhook use cases. */
export const webhookUseCases = (ports: Ports, config: DeliveryConfig): Application['webhooks'] => {
  // This application (one per process) delivers under its own random name in the leases.
  let owner: string | null = null;
  const deliverer = (): string => (owner ??= `deliverer-${ports.secrets.generate()}`);
  return {
    list: scoped(needs.webhooks.list, (actor, page) => listWebhooks(ports, actor, page)),
    get: scoped(needs.webhooks.get, (actor, id) => getWebhook(ports, actor, id)),
    create: scoped(needs.webhooks.create, (actor, input) => createWebhook(ports, actor, input)),
    patch: scoped(needs.webhooks.patch, (actor, id, input, options) => patchWebhook(ports, actor, id, input, options)),
    delete: scoped(needs.webhooks.delete, (actor, id, options) => deleteWebhook(ports, actor, id, options)),
    rotateSecret: scoped(needs.webhooks.rotateSecret, (actor, id) => rotateWebhookSecret(ports, actor, id)),
    replay: scoped(needs.webhooks.replay, (actor, id, input) => replayWebhook(ports, actor, id, input)),
    deliveries: scoped(needs.webhooks.deliveries, (actor, id, page) =>
      listWebhookDeliveries(ports, config.keepLog, actor, id, page),
    ),
    due: () => dueWebhooks(ports, config),
    deliverNext: (id) => deliverNext(ports, config, deliverer(), id),
    deliverDue: () => deliverDue(ports, config, deliverer()),
  };
};
