import { expect } from 'chai';
import type { Answer, Api } from './harness.js';

// Small helpers for the authentication, role and rate-limit tests: token requests in
// either body encoding, the three ways of presenting a token, and typed views of answers.

export type Encoding = 'form' | 'json';

/** A token-endpoint request, its parameters form-encoded (as RFC 6749 requires) or as JSON. */
export const oauthRequest = (
  api: Api,
  path: '/v1/oauth/token' | '/v1/oauth/revoke',
  params: Readonly<Record<string, string>>,
  encoding: Encoding = 'form',
): Promise<Answer> =>
  encoding === 'json'
    ? api.post(path, params)
    : api.post(path, new URLSearchParams(params).toString(), {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });

export interface Grant {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in: number;
  readonly refresh_token: string;
}

/** The grant of a 200 token answer; fails the test on anything else. */
export const grantOf = (a: Answer): Grant => {
  expect(a.status, a.text).to.equal(200);
  return a.json as Grant;
};

export const passwordGrant = async (
  api: Api,
  username: string,
  password: string,
  encoding: Encoding = 'form',
): Promise<Grant> =>
  grantOf(await oauthRequest(api, '/v1/oauth/token', { grant_type: 'password', username, password }, encoding));

export const refreshGrant = (api: Api, refreshToken: string, encoding: Encoding = 'form'): Promise<Answer> =>
  oauthRequest(api, '/v1/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken }, encoding);

/** The error body of this API: {code, message, description}, plus RFC 6749 members on token failures. */
export interface ErrorBody {
  readonly code: number;
  readonly message: string;
  readonly description: string;
  readonly error?: string;
  readonly error_description?: string;
}

/** Asserts an error answer's status and `code` (and that the body has this API's error shape); answers the body. */
export const expectError = (a: Answer, status: number, code: number): ErrorBody => {
  expect(a.status, a.text).to.equal(status);
  expect(a.header('content-type')).to.match(/^application\/json/);
  const body = a.json as ErrorBody;
  expect(body.code, a.text).to.equal(code);
  expect(body.message).to.be.a('string').and.not.empty;
  expect(body.description).to.be.a('string').and.not.empty;
  return body;
};

/** `Authorization: Basic base64(<token>:)`: the token as user name, an empty password. */
export const basic = (user: string, password = ''): string =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

/** Asserts a 401 with the Bearer challenge of contract §3. */
export const expectUnauthorized = (a: Answer): ErrorBody => {
  expect(a.status, a.text).to.equal(401);
  // RFC 6750 §3: auth-params are quoted strings; error_description holds no '"' or '\\'.
  expect(a.header('www-authenticate')).to.match(
    /^Bearer realm="support"(, error="[a-z_]+"(, error_description="[\x20\x21\x23-\x5B\x5D-\x7E]*")?)?$/,
  );
  const body = a.json as ErrorBody;
  expect(Math.floor(body.code / 100), a.text).to.equal(401);
  expect(body.message).to.be.a('string').and.not.empty;
  expect(body.description).to.be.a('string').and.not.empty;
  return body;
};

/** The X-Rate-Limit-* headers as numbers (NaN when absent). */
export const rateHeaders = (a: Answer): { limit: number; remaining: number; reset: number } => ({
  limit: Number(a.header('x-rate-limit-limit')),
  remaining: Number(a.header('x-rate-limit-remaining')),
  reset: Number(a.header('x-rate-limit-reset')),
});
