import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore } from '@support/adapter-embedded';
import { TYPES } from '../../src/index.js';
import { manualClock, startApi, type Api, type Answer } from '../support/harness.js';

// The embedded store keeps what it acknowledged: everything written through HTTPS reads back
// the same after a stop and a start on the same DATA_DIR (bytes and ETag), the tokens still
// work, the feed goes on from its newest seq, and new ids follow the old ones.

interface Seen {
  readonly status: number;
  readonly etag: string | undefined;
  readonly text: string;
}

const seen = (a: Answer): Seen => ({ status: a.status, etag: a.header('etag'), text: a.text });

describe('HTTP: the embedded store across a restart', function () {
  this.timeout(60_000);
  let dir: string;
  let api: Api | null = null;
  // One clock for both runs, so that tokens and times mean the same after the restart.
  const clock = manualClock();
  const start = (): Promise<Api> =>
    startApi(
      { STORE: 'embedded', DATA_DIR: dir, PUBLIC_URL: 'https://support.example.test', WEBHOOK_ALLOW_PRIVATE: 'true' },
      {
        rebind: (c) => {
          c.rebindSync(TYPES.Clock).toConstantValue(clock);
        },
      },
    );

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'support-restart-'));
  });
  afterEach(async () => {
    await api?.close();
    api = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads back every kind of resource byte for byte, keeps tokens, the feed and the id sequences', async () => {
    api = await start();
    const first = api;
    const admin = await first.adminToken();
    const agent = await first.userWithToken('agent', 'Grace Agent');
    const customer = await first.userWithToken('customer', 'Ada Customer');
    const post = async (
      path: string,
      body: unknown,
      token = admin,
      headers: Record<string, string> = {},
    ): Promise<Answer> => {
      const a = await first.post(path, body, { token, headers });
      expect(a.status, `${path}: ${a.text}`).to.be.oneOf([200, 201]);
      return a;
    };
    const group = await post('/v1/groups', { name: 'Printers', description: 'Everything that prints' });
    const groupId = (group.json as { id: number }).id;
    await first.request('PATCH', `/v1/users/${agent.id}`, { token: admin, body: { group_ids: [groupId] } });
    const ticket = await post('/v1/tickets', {
      subject: 'Printer on fire',
      summary: 'Smoke',
      customer_id: customer.id,
      priority: 'urgent',
      tags: ['vip'],
    });
    const ticketId = (ticket.json as { id: number }).id;
    await first.request('PATCH', `/v1/tickets/${ticketId}`, {
      token: agent.token,
      body: { assigned_user_id: agent.id, group_id: groupId },
    });
    await post(`/v1/tickets/${ticketId}/messages`, { body: 'On it' }, agent.token);
    await post(
      `/v1/tickets/${ticketId}/messages`,
      { body: 'Internal: call the fire brigade', internal: true },
      agent.token,
    );
    await post(`/v1/tickets/${ticketId}/messages`, { body: 'Thanks' }, customer.token);
    const gone = await post('/v1/tickets', { subject: 'Soon deleted', customer_id: customer.id });
    const goneId = (gone.json as { id: number }).id;
    expect((await first.request('DELETE', `/v1/tickets/${goneId}`, { token: admin })).status).to.equal(200);
    const keyed = await post('/v1/tickets', { subject: 'Sent twice', customer_id: customer.id }, customer.token, {
      'Idempotency-Key': 'restart-1',
    });
    const hook = await post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    const hookId = (hook.json as { id: number }).id;
    await first.request('PATCH', `/v1/webhooks/${hookId}`, { token: admin, body: { active: false } });
    const refresh = await first.request('POST', '/v1/oauth/token', {
      body: 'grant_type=password&username=admin%40example.com&password=admin-password-1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const refreshToken = (refresh.json as { refresh_token: string }).refresh_token;

    const paths = [
      `/v1/tickets/${ticketId}`,
      `/v1/tickets/${ticketId}?embed=customer,assigned_user,group`,
      `/v1/tickets/${ticketId}/messages`,
      `/v1/tickets/${ticketId}/messages/2`,
      `/v1/tickets/${goneId}`,
      `/v1/tickets?sort=id`,
      '/v1/tickets?q=printer',
      '/v1/users?per_page=100',
      `/v1/users/${agent.id}`,
      '/v1/groups',
      `/v1/groups/${groupId}/users`,
      `/v1/webhooks/${hookId}`,
      '/v1/events?per_page=100',
    ];
    const before = new Map<string, Seen>();
    for (const path of paths) before.set(path, seen(await first.get(path, { token: admin })));
    const customerView = seen(await first.get(`/v1/tickets/${ticketId}/messages`, { token: customer.token }));
    const newestBefore = (await first.server.store.events.bounds()).newest;
    await first.close();
    api = null;

    api = await start();
    const second = api;
    for (const path of paths)
      expect(seen(await second.get(path, { token: admin })), path).to.deep.equal(before.get(path));
    // The customer's token still works and still sees no internal note.
    expect(seen(await second.get(`/v1/tickets/${ticketId}/messages`, { token: customer.token }))).to.deep.equal(
      customerView,
    );
    // The kept answer of the idempotent POST is replayed, and nothing is created twice.
    const again = await second.post(
      '/v1/tickets',
      { subject: 'Sent twice', customer_id: customer.id },
      { token: customer.token, headers: { 'Idempotency-Key': 'restart-1' } },
    );
    expect(again.status).to.equal(201);
    expect(again.header('idempotent-replayed')).to.equal('true');
    expect(again.text).to.equal(keyed.text);
    // A refresh token issued before the stop rotates after it (and only once).
    const rotated = await second.request('POST', '/v1/oauth/token', {
      body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(refreshToken)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(rotated.status, rotated.text).to.equal(200);
    // New ids follow the old ones, and the feed goes on from its newest seq without a gap.
    const next = await second.post(
      '/v1/tickets',
      { subject: 'After the restart', customer_id: customer.id },
      { token: admin },
    );
    expect((next.json as { id: number }).id).to.equal((keyed.json as { id: number }).id + 1);
    const events = (await second.get(`/v1/events?after=${String(newestBefore)}`, { token: admin })).json as {
      seq: number;
      type: string;
    }[];
    expect(events.map((e) => [e.seq, e.type])).to.deep.equal([[newestBefore + 1, 'ticket.created']]);
    const message = await second.post(
      `/v1/tickets/${ticketId}/messages`,
      { body: 'Still here' },
      { token: agent.token },
    );
    expect((message.json as { id: number }).id).to.equal(4);
  });

  it('a failed commit answers 503 with Retry-After, /readyz too, and refuses every later call (fail-stop; the process exit is tested in test/faults)', async () => {
    let failing = false;
    api = await startApi(
      { STORE: 'embedded', DATA_DIR: dir },
      {
        rebind: (c) => {
          c.rebindSync(TYPES.Store).toConstantValue(
            createEmbeddedStore({
              dataDir: dir,
              beforeCommit: () => {
                if (failing) throw new Error('EIO: injected');
              },
            }),
          );
        },
      },
    );
    const token = await api.adminToken();
    const customer = await api.userWithToken('customer');
    const before = await api.get('/v1/tickets', { token });
    failing = true;
    const refused = await api.post('/v1/tickets', { subject: 'Lost?', customer_id: customer.id }, { token });
    expect(refused.status).to.equal(503);
    expect(refused.header('retry-after')).to.match(/^\d+$/);
    expect((refused.json as { code: number }).code).to.equal(50301);
    expect((await api.get('/readyz')).status).to.equal(503);
    failing = false;
    // Memory may hold what the disk does not: nothing is read or written from it any more.
    expect((await api.get('/v1/tickets', { token })).status).to.equal(503);
    expect((await api.post('/v1/tickets', { subject: 'Later', customer_id: customer.id }, { token })).status).to.equal(
      503,
    );
    expect((await api.get('/readyz')).status).to.equal(503);
    await api.close();
    api = await start();
    // The restart loads what the disk holds: the list is what it was before the failure.
    expect((await api.get('/v1/tickets', { token: await api.adminToken() })).json).to.deep.equal(before.json);
  });

  it('refuses a second service on the same DATA_DIR, naming the process that holds it', async () => {
    api = await start();
    let refused: unknown = null;
    try {
      const other = await start();
      await other.close();
    } catch (e) {
      refused = e;
    }
    expect(refused).to.be.instanceOf(Error);
    expect((refused as Error).message).to.match(/DATA_DIR .* is in use by this process already/);
  });
});
