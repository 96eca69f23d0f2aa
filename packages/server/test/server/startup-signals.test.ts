import { expect } from 'chai';
import { spawnMain, type Child } from './child.js';

// SIGTERM or SIGINT during start-up, before the banner, stops the process cleanly: exit 0,
// no stack, no banner. main.ts installs the handlers before the service's modules load.
// START_PAUSE (tests only, docs/operations.md "Stopping") holds start-up at a known point until the
// signal comes, so each case signals exactly where it says: while the modules would load
// (before-load), and once the server listens with the store open (before-banner).

const within = <A>(ms: number, what: string, p: Promise<A>): Promise<A> =>
  Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => {
        reject(new Error(`timed out waiting for ${what}`));
      }, ms).unref(),
    ),
  ]);

const paused = (child: Child, at: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const look = (): void => {
      if (child.stdout().includes('"start paused until a signal"') && child.stdout().includes(`"at":"${at}"`)) {
        child.proc.stdout.off('data', look);
        resolve();
      }
    };
    child.proc.stdout.on('data', look);
    void child.exited.then((exit) => {
      reject(new Error(`exited ${JSON.stringify(exit)} before pausing: ${child.stderr()}`));
    });
    look();
  });

const logLines = (out: string): { message: string; signal?: string }[] =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { message: string; signal?: string });

describe('server process: a stop signal during start-up', function () {
  this.timeout(60_000);
  const children: Child[] = [];
  after(() => {
    for (const c of children) if (!c.hasExited()) c.proc.kill('SIGKILL');
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    for (const at of ['before-load', 'before-banner'] as const) {
      it(`${signal} ${at === 'before-load' ? 'while the modules load' : 'once listening, before the banner'}: exit 0, no stack, no banner`, async () => {
        const child = spawnMain({ PORT: '0', ADMIN_PASSWORD: 'admin-password-1', START_PAUSE: at });
        children.push(child);
        await within(30_000, `the pause ${at}`, paused(child, at));
        child.proc.kill(signal);
        const exit = await within(30_000, 'the exit', child.exited);
        expect(exit, child.stderr()).to.deep.equal({ code: 0, signal: null });
        expect(child.stderr(), 'stderr').to.equal('');
        expect(child.stdout()).not.to.match(/listening on|docs:/);
        const messages = logLines(child.stdout()).map((l) => l.message);
        if (at === 'before-load') expect(messages).to.include('stopped before start');
        else expect(messages).to.include.members(['stopping', 'stopped']);
        expect(logLines(child.stdout()).find((l) => l.message.startsWith('stop'))?.signal).to.equal(signal);
      });
    }
  }
});
