export { httpWebhookSender, type WebhookSenderOptions } from './delivery.js';
