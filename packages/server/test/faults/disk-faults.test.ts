import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { faultShim, notRun, shimControl } from './shim.js';
import { allTickets, exitWithin, faultEnv, newCustomer, serviceOn, type Service } from './service.js';
import { tempDirEachTest } from '../support/temp-dir.js';

// A disk that fails under the service, for real, in a plain `node` process: fdatasync or pwrite
// returning EIO (an LD_PRELOAD shim compiled here with cc), a tmpfs that is genuinely full. The
// documented behaviour is fail-stop (docs/embedded-store.md, "Faults"): the write that met the
// fault is answered 503 (or not at all), the process logs one line and exits 75, and the restart
// holds exactly the acknowledged writes. Seen failing on the old code: Node exited 1 on lmdb-js's
// unhandled rejections, and the in-place reload could leave a store the next start refused.

const stopLine =
  /"message":"stopping: the embedded store cannot write its data; restart the service once the disk is fixed"/;

const postTickets = async (s: Service, customer: number, n: number, summary = 'a ticket'): Promise<number[]> => {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const a = await s.call('POST', '/v1/tickets', {
      subject: `Acknowledged ${String(i)}`,
      summary,
      customer_id: customer,
    });
    expect(a.status, a.text).to.equal(201);
    ids.push((a.json as { id: number }).id);
  }
  return ids;
};

/** After a fail-stop: exit 75, the two lines, no crash (lmdb-js itself prints the I/O error on stderr). */
const expectFailStop = async (s: Service, cause: RegExp): Promise<void> => {
  const exit = await exitWithin(s.started, 10_000);
  expect(exit.code, s.started.stderr()).to.equal(75);
  const out = s.started.stdout();
  expect(out).to.match(new RegExp(`"message":"embedded store: commit failed: ${cause.source}`), out.slice(-1500));
  expect(out).to.match(stopLine, out.slice(-1500));
  // Not a crash: Node prints its version under an uncaught error's stack.
  expect(s.started.stderr()).not.to.match(/Node\.js v\d/);
};

describe('faults: a disk that fails under the service (plain node processes)', function () {
  this.timeout(180_000);
  let dir: string;
  tempDirEachTest('support-disk-faults-', (made) => (dir = made));

  for (const [fault, cause] of [
    ['eio-sync', /.*Input\/output error/],
    ['eio-write', /.*(Input\/output error|I\/O error)/],
  ] as const) {
    it(`${fault} (LD_PRELOAD): 503 or no answer, exit 75 with one line; the restart holds exactly the acknowledged writes, and the record shape first written in the failed batch reads back later`, async function () {
      const shim = faultShim();
      if ('missing' in shim) {
        notRun(`The ${fault} fault test`, shim.missing);
        this.skip();
      }
      const control = shimControl(dir);
      const data = join(dir, 'data');
      const env = faultEnv(data, { LD_PRELOAD: shim.path, SHIM_CONTROL: control.path });
      const first = await serviceOn(env);
      const customer = await newCustomer(first);
      const acked = await postTickets(first, customer, 5);
      control.set(fault);
      // The first group ever: a record shape the store has never written.
      const refused = await first.call('POST', '/v1/groups', { name: 'Tier 2' }).catch(() => null);
      if (refused !== null) {
        expect(refused.status, refused.text).to.equal(503);
        expect(refused.headers['retry-after']).to.match(/^\d+$/);
      }
      await expectFailStop(first, cause);
      control.set('');
      const second = await serviceOn(env);
      try {
        expect([...(await allTickets(second)).keys()]).to.deep.equal(acked);
        expect((await second.call('GET', '/v1/groups')).json).to.deep.equal([]);
        const group = await second.call('POST', '/v1/groups', { name: 'Tier 2' });
        expect(group.status, group.text).to.equal(201);
        await postTickets(second, customer, 1);
      } finally {
        await second.started.stop();
      }
      const third = await serviceOn(env);
      try {
        const groups = (await third.call('GET', '/v1/groups')).json as { name: string }[];
        expect(groups.map((g) => g.name)).to.deep.equal(['Tier 2']);
        expect((await allTickets(third)).size).to.equal(acked.length + 1);
      } finally {
        await third.started.stop();
      }
    });
  }

  it('a genuinely full tmpfs: exit 75 with one line; with room again the restart holds every acknowledged write', async function () {
    const mount = join(dir, 'small');
    mkdirSync(mount);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      notRun('The full-disk test', 'cannot mount a small tmpfs here (needs root)');
      this.skip();
    }
    try {
      const env = faultEnv(join(mount, 'data'));
      const first = await serviceOn(env);
      const customer = await newCustomer(first);
      const acked: number[] = [];
      for (let i = 0; i < 2000; i += 1) {
        const a = await first
          .call('POST', '/v1/tickets', {
            subject: `Big ${String(i)}`,
            summary: 'x'.repeat(8000),
            customer_id: customer,
          })
          .catch(() => null);
        if (a === null || a.status !== 201) {
          if (a !== null) expect(a.status, a.text).to.equal(503);
          break;
        }
        acked.push((a.json as { id: number }).id);
      }
      expect(acked.length).to.be.greaterThan(3);
      // lmdb-js prints "No space left on device" itself; the commit fails with the I/O error it then reports.
      await expectFailStop(first, /.*(No space left on device|Input\/output error)/);
      execFileSync('mount', ['-o', 'remount,size=64m', mount], { stdio: 'ignore' });
      const second = await serviceOn(env);
      try {
        const listed = await allTickets(second);
        for (const id of acked) expect(listed.has(id), `ticket ${String(id)}`).to.equal(true);
        expect(listed.size).to.equal(acked.length);
      } finally {
        await second.started.stop();
      }
    } finally {
      execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
    }
  });
});
