import type { DomainError } from '@support/domain';

/** RFC 6749 §5.2 error codes this service answers with. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope';

export interface OAuthError {
  readonly _tag: 'OAuthError';
  readonly error: OAuthErrorCode;
  readonly description: string;
}

export const oauthError = (error: OAuthErrorCode, description: string): OAuthError => ({
  _tag: 'OAuthError',
  error,
  description,
});

/** Why a password grant was refused: an RFC 6749 error, or too many failures for the account (429, contract §11). */
export type GrantRefusal = OAuthError | (DomainError & { readonly _tag: 'LoginThrottled' });

/** A successful token answer (RFC 6749 §5.1). */
export interface TokenGrant {
  readonly accessToken: string;
  readonly tokenType: 'bearer';
  /** Seconds. */
  readonly expiresIn: number;
  readonly refreshToken: string;
  /** The scopes the access token holds (RFC 6749 §5.1 `scope`, space-separated). */
  readonly scope: string;
}

export interface AuthConfig {
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  /** A refresh chain ends this long after its password grant, however often it is refreshed (contract §11). */
  readonly refreshMaxAgeSeconds: number;
}
