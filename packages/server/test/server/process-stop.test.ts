import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { generate } from 'selfsigned';
import { reap, startMain, tokenRequest, type ChildAnswer, type Started } from './child.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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
