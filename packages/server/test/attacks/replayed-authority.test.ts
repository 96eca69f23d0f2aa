import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reap } from '../server/child.js';
import { startTarget, type Target } from './attacker.js';

// Attack 4 of the security review (contract §11): an Idempotency-Key repeat was answered before
// the router, so it skipped authorization. An admin demoted to customer replayed rotate-secret
// and read the current webhook secret; a tickets:read admin token replayed a webhook creation;
// the kept answers held webhook secrets in clear (whsec_ strings in the store file). Now a
// repeat is answered only after the caller's role and scopes are checked again for that
// operation, and a kept answer is kept without its secret (the repeat shows it null). The real
// process on the embedded store, so the store file can be searched.

// A receiver on this machine (nothing listens there): the sandbox resolves no public name.
const receiver = 'https://127.0.0.1:9/hooks';
const hookBody = { url: receiver, events: ['*'] };

describe('attack: an Idempotency-Key repeat skips authorization (contract §11, over HTTPS)', function () {
  this.timeout(120_000);
  let target: Target;
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'replay-attack-'));
    target = await startTarget({ STORE: 'embedded', DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  after(async () => {
    await reap(target.child);
    await rm(dataDir, { recursive: true, force: true });
  });

  const keyed = (key: string) => ({ 'Idempotency-Key': key });

  it('an admin demoted to customer repeats rotate-secret: 403, no secret', async () => {
    const admin = await target.admin();
    const insider = await target.user('admin');
    const hook = await target.send('POST', '/v1/webhooks', {
      token: insider.token,
      body: hookBody,
      headers: keyed('create-1'),
    });
    expect(hook.status, hook.text).to.equal(201);
    const id = (hook.json as { id: number }).id;
    const rotated = await target.send('POST', `/v1/webhooks/${id}/rotate-secret`, {
      token: insider.token,
      headers: keyed('rotate-1'),
    });
    expect(rotated.status, rotated.text).to.equal(200);
    const demoted = await target.send('PATCH', `/v1/users/${insider.id}`, { token: admin, body: { role: 'customer' } });
    expect(demoted.status, demoted.text).to.equal(200);
    const asCustomer = await target.login(insider.email, insider.password);
    for (const [path, key] of [
      [`/v1/webhooks/${id}/rotate-secret`, 'rotate-1'],
      ['/v1/webhooks', 'create-1'],
    ] as const) {
      const repeat = await target.send('POST', path, {
        token: asCustomer,
        ...(key === 'create-1' ? { body: hookBody } : {}),
        headers: keyed(key),
      });
      expect(repeat.status, `${path}: ${repeat.text}`).to.equal(403);
      expect(repeat.text).not.to.contain('whsec_');
      expect(repeat.headers['idempotent-replayed']).to.equal(undefined);
    }
  });

  it('a tickets:read token of the same admin repeats a webhook creation: 403 insufficient_scope', async () => {
    const insider = await target.user('admin');
    const body = { url: receiver, events: ['ticket.created'] };
    const first = await target.send('POST', '/v1/webhooks', { token: insider.token, body, headers: keyed('c-2') });
    expect(first.status, first.text).to.equal(201);
    const narrow = await target.login(insider.email, insider.password, 'tickets:read');
    const repeat = await target.send('POST', '/v1/webhooks', { token: narrow, body, headers: keyed('c-2') });
    expect(repeat.status, repeat.text).to.equal(403);
    expect((repeat.json as { code: number }).code).to.equal(40303);
    expect(repeat.text).not.to.contain('whsec_');
  });

  it('webhooks:manage without events:read may not create, aim or replay a webhook (insufficient_scope)', async () => {
    const insider = await target.user('admin');
    const hook = await target.send('POST', '/v1/webhooks', { token: insider.token, body: hookBody });
    expect(hook.status, hook.text).to.equal(201);
    const id = (hook.json as { id: number }).id;
    const manage = await target.login(insider.email, insider.password, 'webhooks:manage');
    const refused = [
      await target.send('POST', '/v1/webhooks', { token: manage, body: hookBody }),
      await target.send('PATCH', `/v1/webhooks/${id}`, { token: manage, body: { events: ['*'] } }),
      await target.send('PATCH', `/v1/webhooks/${id}`, { token: manage, body: { url: `${receiver}/2` } }),
      await target.send('POST', `/v1/webhooks/${id}/replay`, { token: manage, body: { after: 0 } }),
    ];
    for (const r of refused) {
      expect(r.status, r.text).to.equal(403);
      expect((r.json as { code: number }).code).to.equal(40303);
      expect(r.headers['www-authenticate']).to.contain('events:read');
    }
    const described = await target.send('PATCH', `/v1/webhooks/${id}`, { token: manage, body: { description: 'x' } });
    expect(described.status, 'other changes stay open to webhooks:manage').to.equal(200);
    const both = await target.login(insider.email, insider.password, 'webhooks:manage events:read');
    const made = await target.send('POST', '/v1/webhooks', { token: both, body: hookBody });
    expect(made.status, made.text).to.equal(201);
  });

  it('a kept answer holds no secret: the repeat answers the same with secret (or token) null', async () => {
    const insider = await target.user('admin');
    const first = await target.send('POST', '/v1/webhooks', {
      token: insider.token,
      body: hookBody,
      headers: keyed('c-4'),
    });
    expect(first.status).to.equal(201);
    const shown = first.json as { id: number; secret: string };
    expect(shown.secret).to.match(/^whsec_/);
    const repeat = await target.send('POST', '/v1/webhooks', {
      token: insider.token,
      body: hookBody,
      headers: keyed('c-4'),
    });
    expect(repeat.status).to.equal(201);
    expect(repeat.headers['idempotent-replayed']).to.equal('true');
    expect(repeat.json).to.deep.equal({ ...(first.json as object), secret: null });
    const rotate = () =>
      target.send('POST', `/v1/webhooks/${shown.id}/rotate-secret`, { token: insider.token, headers: keyed('r-4') });
    const rotated = await rotate();
    expect((rotated.json as { secret: string }).secret).to.match(/^whsec_/);
    expect((await rotate()).json).to.include({ secret: null });
    const made = () =>
      target.send('POST', '/v1/users/me/tokens', {
        token: insider.token,
        body: { name: 'bot', scopes: ['tickets:read'] },
        headers: keyed('t-4'),
      });
    const token = await made();
    expect(token.status, token.text).to.equal(201);
    const secret = (token.json as { token: string }).token;
    const again = await made();
    expect(again.status).to.equal(201);
    expect(again.json).to.deep.equal({ ...(token.json as object), token: null });
    // Nothing the service writes holds the personal token in clear (only its hash is stored;
    // the kept answer held it). A webhook's current secret is in its record by need (it signs).
    for (const name of await readdir(dataDir, { recursive: true })) {
      const bytes = await readFile(join(dataDir, name)).catch(() => Buffer.alloc(0));
      expect(bytes.includes(secret), `${name} holds a personal token`).to.equal(false);
    }
  });
});
