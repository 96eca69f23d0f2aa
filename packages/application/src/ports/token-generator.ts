export interface TokenGenerator {
  /** A new secret: at least 256 random bits, base64url. */
  generate(): string;
  /** The SHA-256 of a token (hex); stores keep only this. */
  digest(token: string): string;
  /** `length` uniformly random base62 characters (0-9, A-Z, a-z): a personal token's randomness. */
  base62(length: number): string;
}
