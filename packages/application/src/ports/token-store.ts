import type { Scope, UserId } from '@support/domain';

export type TokenKind = 'access' | 'refresh';

/** What the store keeps of a token: its SHA-256 hash, never the token itself. */
export interface TokenRecord {
  readonly hash: string;
  readonly kind: TokenKind;
  readonly userId: UserId;
  /** Tokens issued from one password grant and its refreshes share a family. */
  readonly familyId: string;
  /** Epoch ms; an expired token is never found, and the store may forget it. */
  readonly expiresAt: number;
  /**
   * The scopes a login was narrowed to (the password grant's `scope`, kept by its refreshes);
   * absent: every scope its user's role can use.
   */
  readonly scopes?: readonly Scope[];
  /**
   * Epoch ms of the password grant that began the family, kept by its refreshes: the chain
   * ends REFRESH_MAX_AGE_S after it (contract §11). Absent in records made before it was kept.
   */
  readonly authenticatedAt?: number;
}

export type ConsumeResult =
  | { readonly status: 'consumed'; readonly record: TokenRecord }
  | { readonly status: 'reused'; readonly record: TokenRecord }
  | { readonly status: 'missing' };

export interface TokenStore {
  /**
   * Stores a new token. Saving a hash that is already stored is not an error and changes
   * nothing: a save repeated after a lost answer must not make a used token usable again.
   */
  save(record: TokenRecord): Promise<void>;
  /** A token that exists, is not revoked, not consumed and not expired at `now`. */
  find(hash: string, now: number): Promise<TokenRecord | null>;
  /**
   * Uses a refresh token once, atomically: the first caller gets 'consumed', every later
   * one 'reused' (a replay), until the record expires. Unknown or expired: 'missing'.
   */
  consume(hash: string, now: number): Promise<ConsumeResult>;
  revoke(hash: string): Promise<void>;
  revokeFamily(familyId: string): Promise<void>;
}
