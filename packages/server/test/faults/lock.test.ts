import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runToExit } from '../server/child.js';
import { notRun } from './shim.js';
import { allTickets, faultEnv, newCustomer, serviceOn } from './service.js';
import { tempDirEachTest } from '../support/temp-dir.js';

// One process per DATA_DIR, kept by the kernel (flock on DATA_DIR/service.lock): it holds across
// PID namespaces (two containers on one volume: both services are pid 1) and when the pid in
// service.pid now names another, live process. Seen failing on the old code: the pid file and
// kill(pid, 0) let a second service in on both, and the two acknowledged the same ticket id.

const inUse =
  /^support-ticket-service: could not start: DATA_DIR .* is in use by another process, which holds .*service\.lock/;

describe('faults: one process per DATA_DIR (plain node processes)', function () {
  this.timeout(120_000);
  let dir: string;
  tempDirEachTest('support-lock-', (made) => (dir = made));

  it('refuses a second service in another PID namespace (unshare --pid: both are pid 1)', async function () {
    const unshare = ['unshare', '--pid', '--fork', '--kill-child'];
    try {
      execFileSync(unshare[0] ?? '', [...unshare.slice(1), 'true'], { stdio: 'ignore' });
    } catch {
      notRun('The PID-namespace lock test', 'unshare --pid is not allowed here (needs root or user namespaces)');
      this.skip();
    }
    const env = faultEnv(dir);
    const first = await serviceOn(env, unshare);
    try {
      const second = await runToExit({ ...env, PORT: '0' }, 30_000, unshare);
      expect(second.code, second.stderr).to.equal(1);
      expect(second.stderr).to.match(inUse);
      expect(second.stderr).to.match(/pid 1 on /);
      // The first still serves.
      expect((await first.call('GET', '/v1/tickets')).status).to.equal(200);
    } finally {
      first.started.proc.kill('SIGKILL');
      await first.started.exited;
    }
  });

  it('starts when service.pid names a live process that holds nothing (a reused pid), and the kernel lets go of a killed holder at once', async () => {
    const env = faultEnv(dir);
    const first = await serviceOn(env);
    const ticket = await first.call('POST', '/v1/tickets', {
      subject: 'Before the kill',
      customer_id: await newCustomer(first),
    });
    expect(ticket.status, ticket.text).to.equal(201);
    first.started.proc.kill('SIGKILL');
    await first.started.exited;
    // The killed holder's pid is now another live process's (here: this test runner's).
    writeFileSync(join(dir, 'service.pid'), JSON.stringify({ pid: process.pid, host: 'here', since: 'before' }) + '\n');
    const second = await serviceOn(env);
    try {
      expect([...(await allTickets(second)).values()]).to.deep.equal(['Before the kill']);
      const third = await runToExit({ ...env, PORT: '0' }, 30_000);
      expect(third.code, third.stderr).to.equal(1);
      expect(third.stderr).to.match(inUse);
      expect(third.stderr).to.contain(`pid ${String(second.started.proc.pid)} on `);
    } finally {
      await second.started.stop();
    }
  });
});
