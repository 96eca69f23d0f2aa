import { expect } from 'chai';
import { reap, startMain, tokenRequest, type Started } from './child.js';

// What the process writes where (issue 20; docs/operations.md, "Logs"): stdout is JSON log
// lines only, at LOG_LEVEL and above; the banner, with a generated password, is on stderr;
// a development-only switch gives one warning line.

interface Line {
  readonly level: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

/** Every stdout line parsed as JSON (the test fails on a line that is not). */
const jsonLines = (stdout: string): Line[] =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Line;
      } catch {
        return expect.fail(`a stdout line that is not JSON: ${l}`);
      }
    });

/** Starts, logs in, reads /healthz, stops; returns the child once it has exited 0. */
const run = async (env: Readonly<Record<string, string>>): Promise<Started> => {
  const child = await startMain(env);
  try {
    const password = env.ADMIN_PASSWORD ?? child.printedPassword!;
    const login = await tokenRequest(child, { grant_type: 'password', username: 'admin@example.com', password });
    expect(login.status, login.text).to.equal(200);
    expect((await child.request('GET', '/healthz')).status).to.equal(200);
    expect(await child.stop()).to.deep.equal({ code: 0, signal: null });
    return child;
  } finally {
    await reap(child);
  }
};

describe('server process: stdout is JSON log lines only, at LOG_LEVEL', function () {
  this.timeout(60_000);

  it('default (info): JSON lines only, the listening line, one per request; the generated password only on stderr', async () => {
    const child = await run({});
    const lines = jsonLines(child.stdout());
    const password = child.printedPassword!;
    expect(password).to.match(/^[A-Za-z0-9_-]{24}$/);
    expect(child.stdout()).not.to.include(password);
    expect(child.stderr()).to.include(`password: ${password}`);
    const listening = lines.find((l) => l.message === 'listening');
    expect(listening).to.include({
      url: child.url,
      store: 'memory',
      admin_email: 'admin@example.com',
      fingerprint: child.printedFingerprint,
    });
    expect(listening?.admin_credentials).to.equal('generated, printed once on stderr');
    expect(lines.filter((l) => l.message === 'request').length).to.be.at.least(2);
    expect(lines.map((l) => l.level)).not.to.include('debug');
    expect(lines.filter((l) => l.level === 'warn')).to.deep.equal([]);
    expect(child.stderr()).not.to.include('WARNING');
  });

  it('LOG_LEVEL=debug adds the settings line: the names set, never their values', async () => {
    const child = await run({ LOG_LEVEL: 'debug', ADMIN_PASSWORD: 'debug-level-password' });
    const lines = jsonLines(child.stdout());
    const settings = lines.find((l) => l.message === 'settings');
    expect(settings?.level).to.equal('debug');
    expect(settings?.set).to.include.members(['LOG_LEVEL', 'ADMIN_PASSWORD', 'PORT']);
    expect(child.stdout() + child.stderr()).not.to.include('debug-level-password');
    expect(lines.filter((l) => l.message === 'request').length).to.be.at.least(2);
  });

  it('LOG_LEVEL=warn drops the info lines (no request, no listening) and keeps the warnings', async () => {
    const child = await run({
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'warn-level-password',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    const lines = jsonLines(child.stdout());
    expect(lines.map((l) => l.level).filter((l) => l !== 'warn' && l !== 'error')).to.deep.equal([]);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.settings)).to.deep.equal([
      ['WEBHOOK_ALLOW_PRIVATE=true'],
    ]);
    // The banner still tells the person at the terminal where the service is.
    expect(child.stderr()).to.match(/listening on https:\/\/localhost:\d+/);
  });

  it('LOG_LEVEL=error writes no warning either', async () => {
    const child = await run({
      LOG_LEVEL: 'error',
      ADMIN_PASSWORD: 'error-level-password',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    expect(jsonLines(child.stdout())).to.deep.equal([]);
  });

  it('a development-only switch gives exactly one warning line at start, and one WARNING in the banner', async () => {
    const child = await run({ ADMIN_PASSWORD: 'switch-password', WEBHOOK_ALLOW_PRIVATE: 'yes' });
    const warnings = jsonLines(child.stdout()).filter((l) => l.level === 'warn');
    expect(warnings).to.have.length(1);
    expect(warnings[0]!.message).to.match(/development-only/);
    expect(warnings[0]!.settings).to.deep.equal(['WEBHOOK_ALLOW_PRIVATE=yes']);
    expect(child.stderr().match(/WARNING: development-only settings: WEBHOOK_ALLOW_PRIVATE=yes/g)).to.have.length(1);
  });
});
