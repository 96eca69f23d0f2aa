import type { UserId } from '@support/domain';
import { expect } from 'chai';
import { whoIsCounted, type Counted } from '../src/pipeline/rate-limit.js';

// Who a request counts against, by the request's shape: its path as received, whether it
// came over TLS, and what its credentials turn out to be. `token looked at` says whether
// the credentials were read at all (a public page must not fail on a header meant for the
// API, and plain HTTP is refused whatever it carries).

type Token = 'none' | 'valid' | 'bad';
type Expected = 'exempt' | 'ip' | 'user';

interface Row {
  readonly path: string;
  readonly tls: boolean;
  readonly token: Token;
  readonly counted: Expected;
  readonly tokenLookedAt: boolean;
}

const row = (path: string, tls: boolean, token: Token, counted: Expected, tokenLookedAt: boolean): Row => ({
  path,
  tls,
  token,
  counted,
  tokenLookedAt,
});

const table: readonly Row[] = [
  // health checks: never counted, over TLS or not, whatever the token
  row('/healthz', true, 'valid', 'exempt', false),
  row('/readyz', true, 'none', 'exempt', false),
  row('/readyz', true, 'bad', 'exempt', false),
  row('/healthz', false, 'valid', 'exempt', false),
  // only the exact paths: /healthz.json is an unknown resource like any other
  row('/healthz.json', true, 'none', 'ip', true),
  row('/healthz/', true, 'valid', 'user', true),
  // the API: a valid token's user, else the client IP
  row('/v1/tickets', true, 'valid', 'user', true),
  row('/v1/tickets', true, 'none', 'ip', true),
  row('/v1/tickets', true, 'bad', 'ip', true),
  row('/v1/no-such-thing', true, 'valid', 'user', true),
  row('/', true, 'none', 'ip', true),
  // plain HTTP: refused with 403, counted per IP, the token not read
  row('/v1/tickets', false, 'valid', 'ip', false),
  row('/v1/tickets', false, 'bad', 'ip', false),
  row('/v1/oauth/token', false, 'none', 'ip', false),
  // the token endpoints: per IP even with a valid access token
  row('/v1/oauth/token', true, 'valid', 'ip', false),
  row('/v1/oauth/token', true, 'none', 'ip', false),
  row('/v1/oauth/revoke', true, 'valid', 'ip', false),
  row('/v1/oauth/token.json', true, 'bad', 'ip', false),
  row('/v1/oauth/revoke/', true, 'valid', 'ip', false),
  row('/v1/oauth/tokens', true, 'valid', 'user', true),
  // the documentation page and its assets: per IP, the token not read
  row('/docs', true, 'valid', 'ip', false),
  row('/docs/', true, 'bad', 'ip', false),
  row('/docs/assets/swagger-ui-bundle.js', true, 'valid', 'ip', false),
  row('/docsearch', true, 'valid', 'user', true),
  // the OpenAPI document is an API resource: public, so per IP without a token
  row('/v1/openapi.json', true, 'none', 'ip', true),
  row('/v1/openapi.json', true, 'valid', 'user', true),
];

const ip = '203.0.113.9';
const userId = 7 as UserId;

const expectedCounted = (r: Row): Counted => {
  switch (r.counted) {
    case 'exempt':
      return { kind: 'exempt' };
    case 'ip':
      return { kind: 'ip', ip };
    case 'user':
      return { kind: 'user', userId };
  }
};

describe('HTTP rate limit: who a request counts against', () => {
  for (const r of table) {
    it(`${r.path} over ${r.tls ? 'TLS' : 'plain HTTP'}, token ${r.token} -> ${r.counted}${r.tokenLookedAt ? '' : ', token not read'}`, async () => {
      let lookedAt = false;
      const counted = await whoIsCounted({ path: r.path, overTls: r.tls, ip }, () => {
        lookedAt = true;
        return Promise.resolve(r.token === 'valid' ? userId : null);
      });
      expect(counted).to.deep.equal(expectedCounted(r));
      expect(lookedAt, 'token looked at').to.equal(r.tokenLookedAt);
    });
  }
});
