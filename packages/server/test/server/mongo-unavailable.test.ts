import { expect } from 'chai';
import { reap, startMain, type ChildAnswer, type Started } from './child.js';

/** Nothing of the driver, the address or a stack may reach a client. */
const leaks =
  /mongo|ECONNREFUSED|topology|server selection|127\.0\.0\.1:1\b|\bat .*\.(?:js|ts):\d+|node_modules|Error:/i;

const expectUnavailable = (answer: ChildAnswer, what: string): void => {
  expect(answer.status, `${what}: ${answer.text}`).to.equal(503);
  expect(answer.headers['content-type'], what).to.match(/^application\/json/);
  const retryAfter = answer.headers['retry-after'];
  expect(retryAfter, `${what}: Retry-After`).to.be.a('string');
  expect(Number(retryAfter), `${what}: Retry-After in seconds`).to.be.within(1, 3600);
  expect(String(retryAfter)).to.match(/^\d+$/);
  const body = answer.json as { code?: unknown; message?: unknown; description?: unknown };
  expect(body, what).to.be.an('object');
  expect(body.code, what).to.be.a('number');
  expect(Math.floor(Number(body.code) / 100), what).to.equal(503);
  expect(body.message, what).to.be.a('string');
  expect(answer.text, `${what} leaks internals`).not.to.match(leaks);
};

const timed = async <A>(work: () => Promise<A>): Promise<{ value: A; ms: number }> => {
  const start = Date.now();
  const value = await work();
  return { value, ms: Date.now() - start };
};

describe('server process: STORE=mongo with the database unreachable', function () {
  this.timeout(40_000);
  let child: Started;
  before(async () => {
    // Port 1 on loopback: nothing listens, connections are refused at once.
    child = await startMain(
      {
        STORE: 'mongo',
        MONGO_URL: 'mongodb://127.0.0.1:1/support',
        MONGO_SERVER_SELECTION_TIMEOUT_MS: '300',
        MONGO_OPERATION_TIMEOUT_MS: '1000',
        ADMIN_PASSWORD: 'mongo-admin-password',
      },
      30_000,
    );
  });
  after(async () => {
    await reap(child);
  });

  it('starts anyway and prints its URL (the first admin waits for the store)', () => {
    expect(child.url).to.match(/^https:\/\/localhost:\d+$/);
    expect(child.printedFingerprint).to.equal(child.servedCert.fingerprint256);
    expect(child.stdout()).to.include('store unavailable');
  });

  it('is alive (/healthz 200) but not ready (/readyz 503)', async () => {
    const health = await child.request('GET', '/healthz');
    expect(health.status).to.equal(200);
    const { value: ready, ms } = await timed(() => child.request('GET', '/readyz'));
    expect(ready.status, ready.text).to.equal(503);
    expect(ready.headers['content-type']).to.match(/^application\/json/);
    expect(ready.text).not.to.match(leaks);
    expect(ms).to.be.below(5_000);
  });

  it('answers API requests 503 JSON with Retry-After within a few seconds, leaking nothing', async () => {
    const requests: readonly (readonly [string, string, Record<string, string>, string?])[] = [
      [
        'POST',
        '/v1/oauth/token',
        { 'Content-Type': 'application/json' },
        JSON.stringify({ grant_type: 'password', username: 'admin@example.com', password: 'mongo-admin-password' }),
      ],
      [
        'POST',
        '/v1/oauth/token',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        'grant_type=refresh_token&refresh_token=some-refresh-token',
      ],
      ['GET', '/v1/tickets', { Authorization: 'Bearer some-token-the-store-cannot-check' }],
      ['GET', '/v1/tickets?access_token=some-token', {}],
      [
        'POST',
        '/v1/tickets',
        { Authorization: 'Bearer some-token', 'Content-Type': 'application/json' },
        JSON.stringify({ subject: 'Down', customer_id: 1 }),
      ],
      ['GET', '/v1/users/me', { Authorization: `Basic ${Buffer.from('some-token:').toString('base64')}` }],
    ];
    for (const [method, path, headers, body] of requests) {
      const what = `${method} ${path}`;
      const { value, ms } = await timed(() =>
        child.request(method, path, { headers, ...(body === undefined ? {} : { body }) }),
      );
      expectUnavailable(value, what);
      expect(ms, `${what} took ${ms} ms`).to.be.below(5_000);
    }
  });

  it('keeps answering 503 (no "closed for good" state after the first failures)', async () => {
    for (let i = 0; i < 3; i += 1) {
      expectUnavailable(
        await child.request('GET', '/v1/tickets', { headers: { Authorization: 'Bearer x' } }),
        `attempt ${i}`,
      );
    }
  });

  it('writes no stack trace or secret to its output, and stops cleanly on SIGTERM', async () => {
    const exit = await child.stop();
    expect(exit).to.deep.equal({ code: 0, signal: null });
    const output = child.stdout() + child.stderr();
    expect(output).not.to.match(/\n\s+at .+:\d+:\d+/);
    expect(output).not.to.include('mongo-admin-password');
    expect(output).not.to.include('some-token');
    expect(output).not.to.include('some-refresh-token');
    // stderr holds the start banner only (its lines are indented), no error.
    expect(
      child
        .stderr()
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('  ')),
    ).to.deep.equal([]);
  });
});
