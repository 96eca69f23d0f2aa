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

describe("server process: the event loop's thread runs before libuv's pool threads", function () {
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
    if (!existsSync('/proc/thread-self')) {
      console.log('      NOT RUN: no /proc/thread-self here (not Linux): thread priorities cannot be set or read');
      this.skip();
    }
  });

  /** The niceness of each of the process's threads, the event loop's first. */
  const threads = (child: Started): { loop: number; others: number[] } => {
    const pid = child.proc.pid!;
    const nice = nicenessOf(pid);
    return {
      loop: nice.get(pid)!,
      others: [...nice]
        .filter(([tid]) => tid !== pid)
        .map(([, n]) => n)
        .sort((a, b) => a - b),
    };
  };
  const count = (xs: readonly number[], x: number) => xs.filter((n) => n === x).length;

  it("libuv's pool (4 threads) runs at niceness 10, the event loop and V8's threads at 0, and the listening line says so", async () => {
    child = await startMain({ STORE: 'embedded', DATA_DIR: dataDir });
    const { loop, others } = threads(child);
    expect(loop).to.equal(0);
    expect(count(others, 10)).to.equal(4);
    // V8's background threads (at least one besides the pool) keep the event loop's priority.
    expect(count(others, 0)).to.be.at.least(1);
    expect(count(others, 0) + count(others, 10)).to.equal(others.length);
    expect((await listeningLine(child)).background_threads).to.equal(
      "nice 10 (4 lowered), the event loop's thread first",
    );
    // The service still answers, writes included (the embedded store commits on the pool).
    expect((await child.request('GET', '/healthz')).status).to.equal(200);
  });

  it('finds every thread of a larger pool (UV_THREADPOOL_SIZE=9)', async () => {
    child = await startMain({ UV_THREADPOOL_SIZE: '9' });
    const { loop, others } = threads(child);
    expect(loop).to.equal(0);
    expect(count(others, 10)).to.equal(9);
    expect((await listeningLine(child)).background_threads).to.equal(
      "nice 10 (9 lowered), the event loop's thread first",
    );
  });

  it('started nicer (nice -n 15), the event loop and V8 stay at 15 and the pool goes to 19, never higher', async () => {
    child = await startMain({}, 15_000, ['nice', '-n', '15']);
    const { loop, others } = threads(child);
    expect(loop).to.equal(15);
    expect(count(others, 19)).to.equal(4);
    expect(count(others, 15)).to.equal(others.length - 4);
  });

  it('started at 19 already, nothing can be nicer: no thread is lowered and none is raised', async () => {
    child = await startMain({}, 15_000, ['nice', '-n', '19']);
    const { loop, others } = threads(child);
    expect([loop, ...new Set(others)]).to.deep.equal([19, 19]);
    expect((await listeningLine(child)).background_threads).to.equal(
      "nice 19 (0 lowered), the event loop's thread first",
    );
  });
});
