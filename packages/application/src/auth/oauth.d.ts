/** RFC 6749 §5.2 error codes this service answers with. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type';
export interface OAuthError {
    readonly _tag: 'OAuthError';
    readonly error: OAuthErrorCode;
    readonly description: string;
}
export declare const oauthError: (error: OAuthErrorCode, description: string) => OAuthError;
/** A successful token answer (RFC 6749 §5.1). */
export interface TokenGrant {
    readonly accessToken: string;
    readonly tokenType: 'bearer';
    /** Seconds. */
    readonly expiresIn: number;
    readonly refreshToken: string;
}
export interface AuthConfig {
    readonly accessTokenTtlSeconds: number;
    readonly refreshTokenTtlSeconds: number;
}
//# sourceMappingURL=oauth.d.ts.map