import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reap, startMain, type Started } from './child.js';

// The event loop first (docs/operations.md, "Threads"; src/thread-priority.ts): a real process,
// its threads' niceness read from /proc as the scheduler sees it.

/** Thread id -> niceness, from /proc/<pid>/task/<tid>/stat (the 19th field). */
const nicenessOf = (pid: number): Map<number, number> => {
  const nice = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces): state is the 3rd field, nice the 19th.
    nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nice;
};

/** The 'listening' log line (stdout may come a moment after the banner on stderr). */
const listeningLine = async (child: Started): Promise<Record<string, unknown>> => {
  for (let i = 0; i < 100; i += 1) {
    const line = child
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.message === 'listening');
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return expect.fail(`no listening line on stdout: ${child.stdout()}`);
};

describe('server process: the event loop thread runs before the background threads', function () {
  this.timeout(60_000);
  let child: Started | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'thread-priority-'));
  afterEach(async () => {
    await reap(child);
    child = undefined;
  });
  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  before(function () {
    if (!existsSync('/proc/self/task')) {
      console.log('      NOT RUN: no /proc/<pid>/task here (not Linux): thread priorities cannot be read');
      this.skip();
    }
  });

  it('every thread but the event loop runs at niceness 10, the event loop at 0, and the listening line says so', async () => {
    child = await startMain({ STORE: 'embedded', DATA_DIR: dataDir });
    const pid = child.proc.pid!;
    const nice = nicenessOf(pid);
    expect(nice.get(pid)).to.equal(0);
    const others = [...nice].filter(([tid]) => tid !== pid);
    // V8's background threads and libuv's pool (4 by default) at least.
    expect(others.length).to.be.at.least(5);
    expect(others.filter(([, n]) => n !== 10)).to.deep.equal([]);
    expect((await listeningLine(child)).background_threads).to.equal(
      `nice 10 (${String(others.length)} lowered), the event loop's thread first`,
    );
    // The service still answers, writes included (the embedded store commits on the pool).
    expect((await child.request('GET', '/healthz')).status).to.equal(200);
  });

  it('started nicer (nice -n 15), the event loop stays at 15 and the others go to 19, never higher', async () => {
    child = await startMain({}, 15_000, ['nice', '-n', '15']);
    const pid = child.proc.pid!;
    const nice = nicenessOf(pid);
    expect(nice.get(pid)).to.equal(15);
    const others = [...nice].filter(([tid]) => tid !== pid);
    expect(others.length).to.be.at.least(5);
    expect(others.filter(([, n]) => n !== 19)).to.deep.equal([]);
  });

  it('started at 19 already, nothing can be nicer: no thread is lowered and none is raised', async () => {
    child = await startMain({}, 15_000, ['nice', '-n', '19']);
    const pid = child.proc.pid!;
    expect([...new Set(nicenessOf(pid).values())]).to.deep.equal([19]);
    expect((await listeningLine(child)).background_threads).to.equal(
      "nice 19 (0 lowered), the event loop's thread first",
    );
  });
});
