import { expect } from 'chai';
import type { Person } from './casts.js';
import { startApi, type Api } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';
import { arr, createTicket, obj, type Json } from './resources.js';

// The set-up the webhook suites share (http/webhooks*.test.ts): one API that may deliver to
// 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=true) with a short retry schedule, a fresh receiver for
// every test, and every test's webhooks deleted after it.

export const retrySeconds = [5, 30];

/** What the hooks fill in: the API, its admin token, a customer and this test's receiver. */
export interface WebhookWorld {
  api: Api;
  admin: string;
  customer: Person;
  receiver: Receiver;
}

/** Registers the suite's hooks in the enclosing describe block; answers the world they fill in and the helpers on it. */
export const webhookSuite = () => {
  const w = {} as WebhookWorld;
  before(async () => {
    w.api = await startApi({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_S: retrySeconds.join(',') });
    // Receivers check webhook-timestamp against their own clock.
    w.api.clock.set(Date.now());
    w.admin = await w.api.adminToken();
    w.customer = await w.api.userWithToken('customer', 'Hugo Hook');
  });
  after(async () => {
    await w.api.close();
  });
  beforeEach(async () => {
    w.receiver = await startReceiver();
  });
  afterEach(async () => {
    // Every test's webhooks go with it, so no later test (moving the clock) wakes their retries.
    for (const x of arr(await w.api.get('/v1/webhooks?per_page=100', { token: w.admin }))) {
      await w.api.request('DELETE', `/v1/webhooks/${x.id as number}`, { token: w.admin });
    }
    await w.receiver.close();
  });

  const create = async (body: Json): Promise<Json> => {
    const a = await w.api.post('/v1/webhooks', body, { token: w.admin });
    expect(a.status, a.text).to.equal(201);
    return obj(a);
  };
  const read = async (id: unknown): Promise<Json> => {
    const a = await w.api.get(`/v1/webhooks/${id as number}`, { token: w.admin });
    expect(a.status, a.text).to.equal(200);
    return obj(a);
  };
  const deliveries = async (id: unknown): Promise<Json[]> => {
    const a = await w.api.get(`/v1/webhooks/${id as number}/deliveries`, { token: w.admin });
    expect(a.status, a.text).to.equal(200);
    return arr(a);
  };
  /** The feed after `after`, as GET /v1/events answers it. */
  const feed = async (after: number): Promise<Json[]> =>
    arr(await w.api.get(`/v1/events?after=${after}&per_page=100`, { token: w.admin }));
  const newest = async (): Promise<number> => {
    let after = 0;
    for (let page = await feed(after); page.length > 0; page = await feed(after)) after = page.at(-1)?.seq as number;
    return after;
  };
  const ticket = (subject: string): Promise<Json> =>
    createTicket(w.api, w.admin, { subject, customer_id: w.customer.id });
  return { w, create, read, deliveries, feed, newest, ticket };
};
