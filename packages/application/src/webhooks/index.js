import { deliverDue, deliverNext, dueWebhooks } from './deliver.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, patchWebhook, replayWebhook, rotateWebhookSecret, webhookDeliveries, } from './use-cases.js';
/** The webhook use cases. */
export const webhookUseCases = (ports, config) => {
    // This application (one per process) delivers under its own random name in the leases.
    let owner = null;
    const deliverer = () => (owner ??= `deliverer-${ports.secrets.generate()}`);
    return {
        list: (actor, page) => listWebhooks(ports, actor, page),
        get: (actor, id) => getWebhook(ports, actor, id),
        create: (actor, input) => createWebhook(ports, actor, input),
        patch: (actor, id, input, options) => patchWebhook(ports, actor, id, input, options),
        delete: (actor, id, options) => deleteWebhook(ports, actor, id, options),
        rotateSecret: (actor, id) => rotateWebhookSecret(ports, actor, id),
        replay: (actor, id, input) => replayWebhook(ports, actor, id, input),
        deliveries: (actor, id, page) => webhookDeliveries(ports, config.keepLog, actor, id, page),
        due: () => dueWebhooks(ports, config),
        deliverNext: (id) => deliverNext(ports, config, deliverer(), id),
        deliverDue: () => deliverDue(ports, config, deliverer()),
    };
};
//# sourceMappingURL=index.js.map