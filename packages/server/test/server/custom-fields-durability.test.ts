import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, startMain, startedAsAdmin, type ChildAnswer, type Started } from './child.js';
import { backupJs } from './backup-cli.js';

// Contract §10 on the embedded store, as it happens: the real service (plain node), custom
// field definitions and values written, one definition deleted, then SIGKILL right after the
// deletion's 200. After the restart the deleted field stays deleted (its values unseen), the
// other keeps its values and its index answers cf filters; a backup taken while the service
// runs starts with the same definitions and values.

describe('server: custom fields on the embedded store across SIGKILL and a backup', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  let child: Started | null = null;
  const fresh = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'support-cf-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    if (child !== null && !child.hasExited()) child.proc.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('keeps definitions and values; a definition deleted before the kill stays deleted; a backup keeps both', async () => {
    const dir = fresh();
    const env = { STORE: 'embedded', DATA_DIR: dir, ADMIN_PASSWORD: 'cf-admin-password-1' };
    const { child: first, token } = await startedAsAdmin(env);
    child = first;
    const call = (c: Started, method: string, path: string, body?: unknown): Promise<ChildAnswer> =>
      c.request(method, path, {
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const customer = await call(first, 'POST', '/v1/users', {
      name: 'Zoë',
      email: 'zoe@example.com',
      role: 'customer',
      password: 'zoe-password-1',
    });
    const customerId = (customer.json as { id: number }).id;
    const tier = await call(first, 'POST', '/v1/ticket_fields', {
      key: 'tier',
      title: 'Tier',
      type: 'dropdown',
      options: [{ value: 'gold' }, { value: 'free' }],
    });
    expect(tier.status, tier.text).to.equal(201);
    const seats = await call(first, 'POST', '/v1/ticket_fields', { key: 'seats', title: 'Seats', type: 'integer' });
    expect(seats.status, seats.text).to.equal(201);
    const ticket = await call(first, 'POST', '/v1/tickets', {
      subject: 'Printer on fire',
      customer_id: customerId,
      custom_fields: { tier: 'gold', seats: 12 },
    });
    expect(ticket.status, ticket.text).to.equal(201);
    const ticketId = (ticket.json as { id: number }).id;
    const seatsId = (seats.json as { id: number }).id;
    const deleted = await call(first, 'DELETE', `/v1/ticket_fields/${String(seatsId)}`);
    expect(deleted.status, deleted.text).to.equal(200);
    first.proc.kill('SIGKILL');
    await first.exited;

    child = await startMain(env, 30_000);
    const second = child;
    const fields = await call(second, 'GET', '/v1/ticket_fields');
    expect((fields.json as { key: string }[]).map((f) => f.key)).to.deep.equal(['tier']);
    const read = await call(second, 'GET', `/v1/tickets/${String(ticketId)}`);
    expect((read.json as { custom_fields: unknown }).custom_fields).to.deep.equal({ tier: 'gold' });
    const gold = await call(second, 'GET', '/v1/tickets?cf.tier=gold');
    expect((gold.json as { id: number }[]).map((t) => t.id)).to.deep.equal([ticketId]);
    expect((await call(second, 'GET', '/v1/tickets?cf.seats=12')).status).to.equal(400);

    // A backup taken while the service runs, then started on its own.
    const copy = join(fresh(), 'copy');
    const backup = spawnSync(process.execPath, [backupJs, copy], {
      env: childEnv({ DATA_DIR: dir }),
      encoding: 'utf8',
    });
    expect(backup.status, backup.stderr).to.equal(0);
    await second.stop();
    child = await startMain({ ...env, DATA_DIR: copy }, 30_000);
    const restored = child;
    const again = await call(restored, 'GET', `/v1/tickets/${String(ticketId)}?fields=custom_fields`);
    expect(again.json).to.deep.equal({ custom_fields: { tier: 'gold' } });
    const listed = await call(restored, 'GET', '/v1/tickets?cf.tier=gold&sort=cf.tier');
    expect((listed.json as { id: number }[]).map((t) => t.id)).to.deep.equal([ticketId]);
    await restored.stop();
  });
});
