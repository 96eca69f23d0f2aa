import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reap, runToExit, startMain, tokenRequest, type Started } from './child.js';

/** A port something else already listens on. */
const occupiedPort = (): Promise<Server> =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      resolve(s);
    });
  });

const portOf = (s: Server): number => (s.address() as AddressInfo).port;

describe('server process: bad configuration stops the start with one clear line', function () {
  this.timeout(30_000);
  let dir: string;
  let busy: Server;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'support-config-'));
    writeFileSync(join(dir, 'not-a-cert.pem'), 'this is not a certificate\n');
    writeFileSync(join(dir, 'key.pem'), 'not a key either\n');
    busy = await occupiedPort();
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    busy.close();
  });

  // One of each way a start can fail (every variable's own check: config.test.ts).
  const cases: readonly (readonly [string, string, () => Record<string, string>])[] = [
    ['PORT', 'PORT=abc', () => ({ PORT: 'abc' })],
    ['STORE', 'STORE=redis', () => ({ STORE: 'redis' })],
    ['MONGO_URL', 'STORE=mongo without MONGO_URL', () => ({ STORE: 'mongo' })],
    ['ADMIN_EMAIL', 'ADMIN_EMAIL=x', () => ({ ADMIN_EMAIL: 'x' })],
    ['ADMIN_PASSWORD', 'ADMIN_PASSWORD too short (and not echoed)', () => ({ ADMIN_PASSWORD: 'short' })],
    ['TLS_KEY_FILE', 'TLS_CERT_FILE without TLS_KEY_FILE', () => ({ TLS_CERT_FILE: join(dir, 'not-a-cert.pem') })],
    [
      'TLS_CERT_FILE',
      'TLS_CERT_FILE not PEM',
      () => ({ TLS_CERT_FILE: join(dir, 'not-a-cert.pem'), TLS_KEY_FILE: join(dir, 'key.pem') }),
    ],
    ['PORT', 'PORT already in use', () => ({ PORT: String(portOf(busy)) })],
    ['HTTP_PORT', 'HTTP_PORT already in use', () => ({ PORT: '0', HTTP_PORT: String(portOf(busy)) })],
  ];
  // The processes run side by side (each spends most of its time loading modules).
  const results = new Map<string, Promise<Awaited<ReturnType<typeof runToExit>>>>();
  before(() => {
    for (const [, label, env] of cases) {
      const result = runToExit(env(), 25_000);
      result.catch(() => undefined);
      results.set(label, result);
    }
  });
  for (const [variable, label, env] of cases) {
    it(`names ${variable}: ${label}`, async () => {
      const given = env();
      const result = await results.get(label)!;
      expect(result.code, result.stderr).to.not.equal(0);
      expect(result.code).to.not.equal(null);
      const lines = result.stderr.split('\n');
      expect(lines, `exactly one line on stderr: ${JSON.stringify(result.stderr)}`).to.have.length(2);
      expect(lines[1]).to.equal('');
      const line = lines[0]!;
      expect(line).to.match(new RegExp(`\\b${variable}\\b`));
      expect(line).not.to.match(/\bat .*:\d+:\d+|Error:|node:internal/);
      expect(result.stdout).not.to.include('listening on');
      if (given.ADMIN_PASSWORD !== undefined) expect(line).not.to.include(given.ADMIN_PASSWORD);
    });
  }
});

describe('server process: ADMIN_PASSWORD given', function () {
  this.timeout(30_000);
  let child: Started;
  const password = 'chosen-admin-password-42';
  before(async () => {
    child = await startMain({ ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: password });
  });
  after(async () => {
    await reap(child);
  });

  it('prints no password, and the given one logs in', async () => {
    expect(child.stderr()).to.include('admin: boss@example.com');
    expect(child.printedPassword).to.equal(null);
    expect(child.stderr()).not.to.match(/password:/);
    const login = await tokenRequest(child, { grant_type: 'password', username: 'boss@example.com', password });
    expect(login.status, login.text).to.equal(200);
    const exit = await child.stop();
    expect(exit).to.deep.equal({ code: 0, signal: null });
    expect(child.stdout() + child.stderr()).not.to.include(password);
  });
});
