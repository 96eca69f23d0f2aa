import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminToken, runToExit, startMain, type Started } from '../server/child.js';
import { feedTicketIds } from './service.js';
import { tempDirEachTest } from '../support/temp-dir.js';
import { runBackup } from '../server/backup-cli.js';

// The backup command end to end, as an operator runs it: `node .../backup.js <dir>` in its own
// process beside the running service; the service started on the copy has the tickets, the feed,
// the certificate (same fingerprint) and the first admin's generated password of the moment of
// the backup, and nothing written after it. A backup killed part-way is refused at start, never
// started as an empty or partial store.

const post = async (s: Started, token: string, path: string, body: unknown): Promise<number> => {
  const a = await s.request('POST', path, {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(a.status, a.text).to.equal(201);
  return (a.json as { id: number }).id;
};

describe('faults: the backup command, end to end (plain node processes)', function () {
  this.timeout(120_000);
  let dir: string;
  tempDirEachTest('support-backup-cli-', (made) => (dir = made));

  it('restores tickets, the feed, the certificate and the generated password of the moment of the backup', async () => {
    const data = join(dir, 'data');
    const copy = join(dir, 'copy');
    const env = { STORE: 'embedded', DATA_DIR: data, RATE_LIMIT: '1000000000' };
    const first = await startMain(env, 30_000);
    let password = '';
    try {
      password = first.printedPassword ?? '';
      expect(password).to.not.equal('');
      const token = await adminToken(first, password);
      const customer = await post(first, token, '/v1/users', {
        name: 'Backed Up',
        email: 'backup@example.com',
        role: 'customer',
        password: 'backup-customer-1',
      });
      const tickets: number[] = [];
      for (const subject of ['One', 'Two', 'Three'])
        tickets.push(await post(first, token, '/v1/tickets', { subject, customer_id: customer }));
      await post(first, token, `/v1/tickets/${String(tickets[0])}/messages`, { body: 'kept' });
      const backup = await runBackup(data, copy).done;
      expect(backup.code, backup.out).to.equal(0);
      expect(backup.out).to.match(
        /^backed up .* to .*copy \(store\.lmdb, blobs, tls-cert\.pem, tls-key\.pem, initial-admin-password\)/,
      );
      await post(first, token, '/v1/tickets', { subject: 'After the backup', customer_id: customer });
    } finally {
      await first.stop();
    }
    expect(readFileSync(join(copy, 'initial-admin-password'), 'utf8').trim()).to.equal(password);
    const restored = await startMain({ ...env, DATA_DIR: copy }, 30_000);
    try {
      expect(restored.printedFingerprint).to.equal(first.printedFingerprint);
      expect(restored.printedPassword, 'no second admin').to.equal(null);
      const token = await adminToken(restored, password);
      const list = await restored.request('GET', '/v1/tickets?sort=id', {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect((list.json as { subject: string }[]).map((t) => t.subject)).to.deep.equal(['One', 'Two', 'Three']);
      const service = {
        started: restored,
        token,
        call: (method: string, path: string) =>
          restored.request(method, path, { headers: { Authorization: `Bearer ${token}` } }),
      };
      expect(await feedTicketIds(service)).to.deep.equal([1, 2, 3]);
      const messages = await service.call('GET', '/v1/tickets/1/messages');
      expect((messages.json as { body: string }[]).map((m) => m.body)).to.include('kept');
    } finally {
      await restored.stop();
    }
  });

  it('a backup killed part-way is refused at start with one line, never started empty', async () => {
    const data = join(dir, 'data');
    const env = { STORE: 'embedded', DATA_DIR: data, ADMIN_PASSWORD: 'backup-admin-1', RATE_LIMIT: '1000000000' };
    const first = await startMain(env, 30_000);
    await first.stop();
    let refused = 0;
    for (let round = 0; round < 3; round += 1) {
      const copy = join(dir, `copy-${String(round)}`);
      const backup = runBackup(data, copy);
      // Killed as soon as it has begun writing (or, at worst, after it finished).
      const began = Date.now();
      while (!existsSync(join(copy, 'backup-unfinished')) && Date.now() - began < 10_000) {
        if (existsSync(join(copy, 'store.lmdb'))) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      backup.kill();
      await backup.done;
      if (existsSync(join(copy, 'backup-unfinished'))) {
        refused += 1;
        // Killed before the store was renamed into place, or between that and the marker's removal.
        const had = existsSync(join(copy, 'store.lmdb'));
        const start = await runToExit({ ...env, DATA_DIR: copy, PORT: '0' }, 30_000);
        expect(start.code, start.stderr).to.equal(1);
        expect(start.stderr).to.match(/DATA_DIR .* holds a backup that did not finish \(backup-unfinished\)/);
        expect(existsSync(join(copy, 'store.lmdb')), 'the refused start made no store').to.equal(had);
      } else {
        // It finished before the kill: a whole copy.
        expect(existsSync(join(copy, 'store.lmdb'))).to.equal(true);
      }
    }
    expect(refused, 'kills that fell inside the backup').to.be.greaterThan(0);
  });
});
