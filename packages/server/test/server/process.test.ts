import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { generate } from 'selfsigned';
import { readAnswer, reap, runToExit, startMain, tokenRequest, type ChildAnswer, type Started } from './child.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const occurrences = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

/** A plain-HTTP request to the child's HTTP_PORT listener. */
const plainRequest = (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<ChildAnswer> =>
  new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      readAnswer(res).then(resolve, reject);
    });
    req.on('error', reject);
    req.end();
  });

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

describe('server process: a start with a generated admin password and a plain listener', function () {
  this.timeout(30_000);
  let child: Started;
  let httpPort: number;
  const seenTokens: string[] = [];
  before(async () => {
    child = await startMain({ HTTP_PORT: '0' });
    httpPort = Number(/plain HTTP on port (\d+)/.exec(child.stderr())?.[1]);
  });
  after(async () => {
    await reap(child);
  });

  it('prints the URL it listens on and answers there', async () => {
    expect(child.url).to.equal(`https://localhost:${child.port}`);
    expect(child.port).to.be.greaterThan(0);
    const health = await child.request('GET', '/healthz');
    expect(health.status).to.equal(200);
  });

  it('prints the SHA-256 fingerprint of the certificate it actually serves', () => {
    expect(child.stderr()).to.match(/self-signed TLS certificate, SHA-256 fingerprint /);
    expect(child.printedFingerprint).to.match(/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/);
    expect(child.printedFingerprint).to.equal(child.servedCert.fingerprint256);
    expect(child.servedCert.subject.CN).to.equal('localhost');
  });

  it('serves a certificate a client can pin for localhost (hostname checked)', async () => {
    // pinnedRequest verifies the chain against the served PEM and the name "localhost".
    const ready = await child.request('GET', '/readyz');
    expect(ready.status).to.equal(200);
    await new Promise<void>((resolve, reject) => {
      const socket = tlsConnect(
        { host: '127.0.0.1', port: child.port, servername: 'elsewhere.example.com', ca: child.servedPem },
        () => {
          socket.end();
          reject(new Error('a certificate for localhost was accepted for another name'));
        },
      );
      socket.on('error', () => {
        resolve();
      });
    });
  });

  it('prints a generated admin password exactly once, and it logs in', async () => {
    const password = child.printedPassword;
    expect(password, child.stderr()).to.be.a('string');
    expect(password).to.match(/^[A-Za-z0-9_-]{24}$/);
    expect(occurrences(child.stdout() + child.stderr(), password!)).to.equal(1);
    expect(child.stderr()).to.include('admin: admin@example.com');
    const login = await tokenRequest(child, {
      grant_type: 'password',
      username: 'admin@example.com',
      password: password!,
    });
    expect(login.status, login.text).to.equal(200);
    const body = login.json as { access_token: string; refresh_token: string; token_type: string };
    expect(body.token_type.toLowerCase()).to.equal('bearer');
    seenTokens.push(body.access_token, body.refresh_token);
    const me = await child.request('GET', '/v1/users/me', {
      headers: { Authorization: `Bearer ${body.access_token}` },
    });
    expect(me.status, me.text).to.equal(200);
    expect(me.json).to.include({ email: 'admin@example.com', role: 'admin' });
    const wrong = await tokenRequest(child, {
      grant_type: 'password',
      username: 'admin@example.com',
      password: `${password!}x`,
    });
    expect(wrong.status).to.be.oneOf([400, 401]);
  });

  it('answers every request on HTTP_PORT with 403 JSON and never a redirect', async () => {
    expect(httpPort).to.be.greaterThan(0);
    expect(child.stderr()).to.include(`plain HTTP on port ${httpPort}`);
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/v1/tickets'],
      ['POST', '/v1/oauth/token'],
      ['GET', '/healthz'],
      ['DELETE', '/v1/tickets/1'],
    ] as const) {
      const answer = await plainRequest(httpPort, method, path, { Host: `localhost:${httpPort}` });
      expect(answer.status, `${method} ${path}`).to.equal(403);
      expect(answer.headers.location, `${method} ${path}`).to.equal(undefined);
      expect(answer.headers['content-type']).to.match(/^application\/json/);
      const body = answer.json as { code?: number; message?: string; description?: string };
      expect(body.code).to.be.a('number');
      expect(Math.floor(body.code! / 100)).to.equal(403);
      expect(`${body.message ?? ''} ${body.description ?? ''}`).to.match(/TLS|HTTPS/i);
    }
  });

  it('never writes the admin password or an issued token to its output', async () => {
    const password = child.printedPassword!;
    const login = await tokenRequest(child, { grant_type: 'password', username: 'admin@example.com', password });
    expect(login.status).to.equal(200);
    const first = login.json as { access_token: string; refresh_token: string };
    seenTokens.push(first.access_token, first.refresh_token);
    // The token in every accepted form: header, Basic user name, query parameter.
    const bearer = await child.request('GET', '/v1/tickets', {
      headers: { Authorization: `Bearer ${first.access_token}` },
    });
    expect(bearer.status, bearer.text).to.equal(200);
    const basic = await child.request('GET', '/v1/users/me', {
      headers: { Authorization: `Basic ${Buffer.from(`${first.access_token}:`).toString('base64')}` },
    });
    expect(basic.status, basic.text).to.equal(200);
    const query = await child.request(
      'GET',
      `/v1/tickets?access_token=${encodeURIComponent(first.access_token)}&per_page=5`,
    );
    expect(query.status, query.text).to.equal(200);
    const created = await child.request('POST', '/v1/users', {
      headers: { Authorization: `Bearer ${first.access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Ada',
        email: 'ada@example.com',
        role: 'customer',
        password: 'ada-secret-password',
      }),
    });
    expect(created.status, created.text).to.equal(201);
    // A failing request with a token and a password still logs nothing secret.
    const invalid = await child.request('GET', '/v1/tickets?access_token=not-a-real-token-but-secret-looking');
    expect(invalid.status).to.equal(401);
    const refreshed = await tokenRequest(child, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status, refreshed.text).to.equal(200);
    const second = refreshed.json as { access_token: string; refresh_token: string };
    seenTokens.push(second.access_token, second.refresh_token);
    // Form-encoded too (as RFC 6749 requires).
    const form = await child.request('POST', '/v1/oauth/token', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: 'ada@example.com',
        password: 'ada-secret-password',
      }).toString(),
    });
    expect(form.status, form.text).to.equal(200);
    const third = form.json as { access_token: string; refresh_token: string };
    seenTokens.push(third.access_token, third.refresh_token);
    const revoked = await child.request('POST', '/v1/oauth/revoke', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Bearer ${second.access_token}` },
      body: new URLSearchParams({ token: second.refresh_token }).toString(),
    });
    expect(revoked.status, revoked.text).to.be.oneOf([200, 204]);

    const exit = await child.stop();
    expect(exit).to.deep.equal({ code: 0, signal: null });
    const output = child.stdout() + child.stderr();
    // The requests above were logged (so the check below looks at real log lines).
    const jsonLines = child
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonLines.filter((l) => l.message === 'request').length).to.be.at.least(8);
    for (const secret of [...seenTokens, 'not-a-real-token-but-secret-looking', 'ada-secret-password']) {
      expect(output.includes(secret), `a secret appears in the output: ${secret.slice(0, 6)}…`).to.equal(false);
    }
    // The generated password only in the banner, never in a log line.
    expect(occurrences(output, password)).to.equal(1);
    for (const line of jsonLines) expect(JSON.stringify(line)).not.to.include(password);
  });
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

describe('server process: graceful stop', function () {
  this.timeout(30_000);
  let child: Started | undefined;
  afterEach(async () => {
    await reap(child);
    child = undefined;
  });

  it('on SIGTERM lets an in-flight request finish, refuses new connections, then exits 0', async () => {
    const started = await startMain({ ADMIN_PASSWORD: 'graceful-password-1' });
    child = started;
    const body = JSON.stringify({
      grant_type: 'password',
      username: 'admin@example.com',
      password: 'graceful-password-1',
    });
    const half = Math.floor(body.length / 2);
    let answered = false;
    const inFlight = new Promise<ChildAnswer>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: started.port,
          method: 'POST',
          path: '/v1/oauth/token',
          headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
          ca: started.servedPem,
          servername: 'localhost',
          agent: false,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (s: string) => {
            text += s;
          });
          res.on('end', () => {
            answered = true;
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: JSON.parse(text) as unknown });
          });
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, half));
      // The rest comes slowly, after the signal (and a second, impatient one).
      void (async () => {
        await sleep(300);
        started.proc.kill('SIGTERM');
        await sleep(200);
        started.proc.kill('SIGTERM');
        await sleep(500);
        req.end(body.slice(half));
      })();
    });

    // While the request waits for its body: no new connections, but the process lives.
    await sleep(600);
    expect(started.hasExited(), 'exited with a request in flight').to.equal(false);
    expect(answered).to.equal(false);
    const refused = await new Promise<string>((resolve) => {
      const socket = tlsConnect(
        { host: '127.0.0.1', port: started.port, servername: 'localhost', ca: started.servedPem },
        () => {
          socket.end();
          resolve('connected');
        },
      );
      socket.on('error', (e: NodeJS.ErrnoException) => {
        resolve(e.code ?? e.message);
      });
    });
    expect(refused).to.equal('ECONNREFUSED');

    const answer = await inFlight;
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.json).to.have.property('access_token');
    // Once the last request is answered the process stops by itself, well within its grace.
    const answeredAt = Date.now();
    const exit = await started.exited;
    expect(exit).to.deep.equal({ code: 0, signal: null });
    expect(Date.now() - answeredAt).to.be.below(5_000);
    expect(started.stdout()).to.match(/"message":"stopping","signal":"SIGTERM"/);
    expect(started.stdout()).to.match(/"message":"already stopping","signal":"SIGTERM"/);
    expect(started.stdout()).to.match(/"message":"stopped"/);
    // stderr holds the start banner only (its lines are indented): no error, no stack.
    expect(
      started
        .stderr()
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('  ')),
    ).to.deep.equal([]);
  });

  it('on SIGINT stops and exits 0', async () => {
    const started = await startMain({ ADMIN_PASSWORD: 'graceful-password-1' });
    child = started;
    expect((await started.request('GET', '/healthz')).status).to.equal(200);
    started.proc.kill('SIGINT');
    const exit = await started.exited;
    expect(exit).to.deep.equal({ code: 0, signal: null });
    expect(started.stdout()).to.match(/"signal":"SIGINT"/);
  });
});

describe('server process: TLS_CERT_FILE / TLS_KEY_FILE and PUBLIC_URL given', function () {
  this.timeout(30_000);
  let dir: string;
  let child: Started | undefined;
  let certPem: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'support-tls-'));
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
    });
    certPem = pems.cert;
    writeFileSync(join(dir, 'cert.pem'), pems.cert);
    writeFileSync(join(dir, 'key.pem'), pems.private);
  });
  after(async () => {
    await reap(child);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the given certificate, prints its fingerprint, and emits URLs on PUBLIC_URL', async () => {
    const started = await startMain({
      TLS_CERT_FILE: join(dir, 'cert.pem'),
      TLS_KEY_FILE: join(dir, 'key.pem'),
      PUBLIC_URL: 'https://support.example.test',
      ADMIN_PASSWORD: 'given-tls-password',
    });
    child = started;
    const expected = new X509Certificate(certPem).fingerprint256;
    expect(started.stderr()).to.include(`TLS certificate SHA-256 fingerprint ${expected}`);
    expect(started.stderr()).not.to.include('self-signed');
    expect(started.printedFingerprint).to.equal(expected);
    expect(started.servedCert.fingerprint256).to.equal(expected);
    expect(started.stderr()).to.include('(public URL https://support.example.test)');
    const login = await tokenRequest(started, {
      grant_type: 'password',
      username: 'admin@example.com',
      password: 'given-tls-password',
    });
    expect(login.status, login.text).to.equal(200);
    const me = await started.request('GET', '/v1/users/me', {
      headers: { Authorization: `Bearer ${(login.json as { access_token: string }).access_token}` },
    });
    expect(me.status, me.text).to.equal(200);
    expect((me.json as { url: string }).url).to.match(/^https:\/\/support\.example\.test\/v1\/users\/\d+$/);
    expect(await started.stop()).to.deep.equal({ code: 0, signal: null });
  });
});
