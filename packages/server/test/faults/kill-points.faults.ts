import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMain } from '../server/child.js';
import { dropUnsynced, faultShim, notRun, shimControl } from './shim.js';
import { allTickets, exitWithin, faultEnv, feedTicketIds, newCustomer, serviceOn } from './service.js';
import { tempDirEachTest } from '../support/temp-dir.js';

// A kill (with a power cut: every unsynced write of the store taken back) at each step of a
// commit, and at each commit of the first start. The LD_PRELOAD shim kills the service from
// inside: before a data write, before the sync, right after it, after the meta page (the commit
// point). After each: the restart holds every acknowledged write, the write in flight exactly
// when its meta page was written, the feed matches; a first start killed anywhere leaves an
// admin whose password is known (printed again, or kept in DATA_DIR). (The store no longer
// reloads in place or refreshes its map, so those steps are gone; backup: backup.test.ts.)

describe('faults: a kill at each step of a commit and of the first start (plain node processes)', function () {
  this.timeout(300_000);
  let dir: string;
  tempDirEachTest('support-kill-points-', (made) => (dir = made));

  for (const point of ['die-write', 'die-sync', 'die-synced', 'die-meta'] as const) {
    it(`${point}: the write in flight is there exactly when its commit point was passed; every acknowledged one is`, async function () {
      const shim = faultShim();
      if ('missing' in shim) {
        notRun(`The ${point} kill test`, shim.missing);
        this.skip();
      }
      const control = shimControl(dir);
      const data = join(dir, 'data');
      const undo = join(dir, 'undo.log');
      const env = faultEnv(data, { LD_PRELOAD: shim.path, SHIM_CONTROL: control.path, SHIM_UNDO: undo });
      const first = await serviceOn(env);
      const customerId = await newCustomer(first);
      const acked: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const made = await first.call('POST', '/v1/tickets', {
          subject: `Acked ${String(i)}`,
          customer_id: customerId,
        });
        expect(made.status, made.text).to.equal(201);
        acked.push((made.json as { id: number }).id);
      }
      control.set(point);
      // Any answer at all (even an error) means the process lived past the kill point: say which.
      const inFlight = await first.call('POST', '/v1/tickets', { subject: 'In flight', customer_id: customerId }).then(
        (a) => `answered ${String(a.status)}: ${a.text.slice(0, 400)}`,
        () => 'no answer',
      );
      expect(inFlight).to.equal('no answer');
      expect((await exitWithin(first.started, 10_000)).signal).to.equal('SIGKILL');
      dropUnsynced(undo, join(data, 'store.lmdb'));
      control.set('');
      const second = await serviceOn(env);
      try {
        const listed = await allTickets(second);
        const expected = point === 'die-meta' ? [...acked, acked.length + 1] : acked;
        expect([...listed.keys()]).to.deep.equal(expected);
        expect(await feedTicketIds(second)).to.deep.equal(expected);
      } finally {
        await second.started.stop();
      }
    });
  }

  it('a first start killed before each of its syncs leaves an admin whose password is known', async function () {
    const shim = faultShim();
    if ('missing' in shim) {
      notRun('The first-start kill test', shim.missing);
      this.skip();
    }
    let survived = false;
    // Every sync with FAULTS_EVERY_STEP=1 (pnpm test:faults), else a spread of them.
    const spread = [1, 2, 3, 5, 8, 12, 17, 23, 30, 40, 52, 70];
    const steps = process.env.FAULTS_EVERY_STEP === '1' ? Array.from({ length: 70 }, (_, i) => i + 1) : spread;
    for (const n of steps) {
      if (survived) break;
      const round = join(dir, `round-${String(n)}`);
      const control = shimControl(dir);
      control.set(`die-sync@${String(n)}`);
      const data = join(round, 'data');
      const undo = join(round, 'undo.log');
      const env = { STORE: 'embedded', DATA_DIR: data, RATE_LIMIT: '1000000000' };
      try {
        const started = await startMain(
          { ...env, LD_PRELOAD: shim.path, SHIM_CONTROL: control.path, SHIM_UNDO: undo },
          30_000,
        );
        // It got through every sync of the first start: nothing left to kill.
        survived = true;
        await started.stop();
        continue;
      } catch (e) {
        expect((e as Error).message).to.match(/the process exited .*SIGKILL/);
      }
      dropUnsynced(undo, join(data, 'store.lmdb'));
      const restarted = await startMain(env, 30_000);
      try {
        const kept = join(data, 'initial-admin-password');
        const password = restarted.printedPassword ?? (existsSync(kept) ? readFileSync(kept, 'utf8').trim() : null);
        expect(password, `round ${String(n)}: the admin's password is neither printed nor kept`).to.not.equal(null);
        const grant = await restarted.request('POST', '/v1/oauth/token', {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `grant_type=password&username=admin%40example.com&password=${encodeURIComponent(password ?? '')}`,
        });
        expect(grant.status, `round ${String(n)}: ${grant.text}`).to.equal(200);
      } finally {
        await restarted.stop();
      }
    }
    expect(survived, 'the rounds reached a first start with no sync left to kill').to.equal(true);
  });
});
