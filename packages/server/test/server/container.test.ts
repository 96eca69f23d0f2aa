import type { Email } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { Container } from 'inversify';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildContainer, configFromEnv, TYPES } from '../../src/index.js';
import { manualClock, plainHasher } from '../support/harness.js';

// The composition root: every binding is needed by the HTTP app, settings reach the service
// through the Config binding, and tests change the wiring by rebinding.

const day = 86_400_000;

const testContainer = (env: Readonly<Record<string, string>> = {}) => {
  const clock = manualClock();
  const c = buildContainer(configFromEnv({ STORE: 'memory', ...env }));
  c.rebindSync(TYPES.Clock).toConstantValue(clock);
  c.rebindSync(TYPES.PasswordHasher).toConstantValue(plainHasher);
  c.rebindSync(TYPES.Logger).toConstantValue({ info: () => undefined, error: () => undefined });
  return { c, clock };
};

/** Logs in as the first admin through the application the container builds; answers the refresh token. */
const refreshTokenOf = async (c: Container): Promise<string> => {
  const app = c.get(TYPES.Application);
  await app.setup.ensureFirstAdmin('admin@example.com' as Email, 'admin-password-1');
  const grant = await app.auth.passwordGrant('admin@example.com', 'admin-password-1');
  if (E.isLeft(grant)) throw new Error(grant.left._tag);
  return grant.right.refreshToken;
};

describe('server: the container (composition root)', () => {
  it('binds every identifier of TYPES as built, before a test rebinds any (the clock included)', () => {
    const c = buildContainer(configFromEnv({ STORE: 'memory' }));
    const unbound = Object.entries(TYPES).flatMap(([name, id]) => (c.isBound(id) ? [] : [name]));
    expect(unbound).to.deep.equal([]);
    expect(c.get(TYPES.Clock).now()).to.be.closeTo(Date.now(), 60_000);
  });

  it('resolves every binding, and the HTTP app needs each one', () => {
    const { c } = testContainer();
    const activated = new Set<string>();
    for (const [name, id] of Object.entries(TYPES)) {
      c.onActivation(id, (_, value: unknown) => {
        activated.add(name);
        return value;
      });
    }
    expect(c.get(TYPES.HttpApp)('https://support.example.com', new AbortController().signal))
      .to.have.property('callback')
      .that.is.a('function');
    expect([...activated].sort()).to.deep.equal(Object.keys(TYPES).sort());
  });

  it('gives one instance of each service (the store, the application) per container', () => {
    const { c } = testContainer();
    expect(c.get(TYPES.Store)).to.equal(c.get(TYPES.Store));
    expect(c.get(TYPES.Application)).to.equal(c.get(TYPES.Application));
    expect(buildContainer(configFromEnv({})).get(TYPES.Store)).not.to.equal(c.get(TYPES.Store));
  });

  it('keeps refresh tokens 30 days by default, with the rebound clock', async () => {
    const { c, clock } = testContainer();
    const refresh = await refreshTokenOf(c);
    clock.advance(30 * day - 1_000);
    const app = c.get(TYPES.Application);
    const rotated = await app.auth.refreshGrant(refresh);
    expect(E.isRight(rotated)).to.equal(true);
    if (E.isLeft(rotated)) return;
    clock.advance(30 * day + 1_000);
    const expired = await app.auth.refreshGrant(rotated.right.refreshToken);
    expect(E.isLeft(expired) && expired.left.error).to.equal('invalid_grant');
  });

  it('keeps refresh tokens REFRESH_TOKEN_TTL_S seconds when it is set', async () => {
    const { c, clock } = testContainer({ REFRESH_TOKEN_TTL_S: '120' });
    const app = c.get(TYPES.Application);
    const first = await refreshTokenOf(c);
    clock.advance(119_000);
    const rotated = await app.auth.refreshGrant(first);
    expect(E.isRight(rotated)).to.equal(true);
    if (E.isLeft(rotated)) return;
    clock.advance(121_000);
    const expired = await app.auth.refreshGrant(rotated.right.refreshToken);
    expect(E.isLeft(expired) && expired.left.error).to.equal('invalid_grant');
  });

  it('builds the HTTP app from the Config binding (a plain request: 403, counted per IP at a tenth of RATE_LIMIT)', async () => {
    const { c } = testContainer({ RATE_LIMIT: '30' });
    const handler = c.get(TYPES.HttpApp)('https://support.example.com', new AbortController().signal).callback();
    const server = createServer((req, res) => {
      void handler(req, res);
    });
    await new Promise<void>((resolve) => {
      server.listen(0, '127.0.0.1', resolve);
    });
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; limit: string | string[] | undefined }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/v1/tickets', agent: false }, (res) => {
          res.resume();
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, limit: res.headers['x-rate-limit-limit'] });
          });
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer).to.deep.equal({ status: 403, limit: '3' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
