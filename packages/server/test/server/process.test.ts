import { X509Certificate } from 'node:crypto';
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { connect as tlsConnect } from 'node:tls';
import { readAnswer, reap, startMain, tokenRequest, type ChildAnswer, type Started } from './child.js';

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

  it('makes its self-signed certificate with an ECDSA P-256 key (each handshake signed in ~21 µs, not ~305 µs as RSA 2048)', () => {
    const served = new X509Certificate(child.servedPem).publicKey;
    expect(served.asymmetricKeyType).to.equal('ec');
    expect(served.asymmetricKeyDetails?.namedCurve).to.equal('prime256v1');
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
