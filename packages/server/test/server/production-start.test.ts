import { expect } from 'chai';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainJs } from './child.js';

// The production start of docs/operations.md (issue 20): the documented command runs the built
// service with node itself as the started process, so the SIGTERM a supervisor sends to
// exactly that process stops it cleanly (exit 0) and leaves nothing behind.

/** dist/test/server → the repository's root. */
const root = fileURLToPath(new URL('../../../../../', import.meta.url));

/** The command of the first `node ...` line in the sh blocks of docs/operations.md's "Production start". */
const documentedCommand = (): readonly string[] => {
  const doc = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Production start'));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const line = blocks.flatMap((b) => b.split('\n')).find((l) => l.startsWith('node '));
  expect(line, 'docs/operations.md, "Production start", names a `node ...` command').to.be.a('string');
  return line!
    .replace(/\s+#.*$/, '')
    .trim()
    .split(/\s+/);
};

const childrenOf = (pid: number): string[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim() !== '');
  } catch {
    return []; // ps exits 1 when it lists nothing
  }
};

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('server process: the documented production start stops on SIGTERM', function () {
  this.timeout(60_000);
  let proc: ChildProcess | undefined;
  // The default store (embedded), on a directory of its own rather than the repository's ./data.
  const dataDir = mkdtempSync(join(tmpdir(), 'production-start-'));
  after(() => {
    if (proc?.pid !== undefined && groupAlive(proc.pid)) process.kill(-proc.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the built entry with node as the started process: SIGTERM to it exits 0, no orphan, JSON-only stdout', async () => {
    const [command, ...args] = documentedCommand();
    expect(command).to.equal('node');
    expect(join(root, args[0] ?? '')).to.equal(mainJs);
    const password = 'production-start-password';
    // A supervisor's start: its own process group, the documented command run from the repository's root.
    const child = spawn(process.execPath, args, {
      cwd: root,
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: '0', ADMIN_PASSWORD: password, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc = child;
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => {
        resolve({ code, signal });
      }),
    );
    const deadline = Date.now() + 45_000;
    while (!out.includes('"message":"listening"')) {
      if (Date.now() > deadline || child.exitCode !== null) expect.fail(`no "listening" line: ${out}\n${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const pid = child.pid!;
    // Its one child: util-linux's flock, holding DATA_DIR for it (docs/embedded-store.md, "Faults").
    expect(
      childrenOf(pid).map((c) => c.replace(/^\s*\d+\s+/, '')),
      'the service starts no process of its own but the lock holder',
    ).to.deep.equal([
      `flock --exclusive --wait 1 --conflict-exit-code 75 ${join(dataDir, 'service.lock')} sh -c echo held; exec cat >/dev/null`,
    ]);

    expect(process.kill(pid, 'SIGTERM')).to.equal(true);
    const exit = await Promise.race([
      exited,
      new Promise<'timeout'>((r) =>
        setTimeout(() => {
          r('timeout');
        }, 15_000),
      ),
    ]);
    expect(exit, err).to.deep.equal({ code: 0, signal: null });
    expect(groupAlive(pid), 'nothing is left in its process group').to.equal(false);

    // Every stdout line is a JSON log line; the banner is on stderr.
    const lines = out.split('\n').filter((l) => l !== '');
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.to.throw();
    const messages = lines.map((l) => (JSON.parse(l) as { message: string }).message);
    expect(messages).to.include.members(['listening', 'stopping', 'stopped']);
    expect(err).to.match(/listening on https:\/\/localhost:\d+/);
    expect(out + err).not.to.include(password);
  });

  it('takes its settings from an environment file in the format of .env.example (node --env-file, systemd EnvironmentFile=)', async () => {
    // .env.example with four lines uncommented, as docs/configuration.md says to do.
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const env = example
      .replace(/^# PORT=.*$/m, 'PORT=0')
      .replace(/^# LOG_LEVEL=.*$/m, 'LOG_LEVEL=debug')
      .replace(/^# ADMIN_PASSWORD=.*$/m, 'ADMIN_PASSWORD=env-file-password');
    const dir = mkdtempSync(join(tmpdir(), 'env-file-'));
    const withData = env.replace(/^# DATA_DIR=.*$/m, `DATA_DIR=${join(dir, 'data')}`);
    expect(withData, '.env.example has a DATA_DIR line').not.to.equal(env);
    try {
      writeFileSync(join(dir, '.env'), withData);
      const child = spawn(process.execPath, [`--env-file=${join(dir, '.env')}`, mainJs], {
        cwd: root,
        detached: true,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      proc = child;
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const deadline = Date.now() + 45_000;
      while (!out.includes('"message":"listening"')) {
        if (Date.now() > deadline || child.exitCode !== null) expect.fail(`no "listening" line: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
      const settings = out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { message: string; set?: string[] })
        .find((l) => l.message === 'settings');
      expect(settings?.set).to.deep.equal(['PORT', 'DATA_DIR', 'ADMIN_PASSWORD', 'LOG_LEVEL']);
      expect(out).not.to.include('env-file-password');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
