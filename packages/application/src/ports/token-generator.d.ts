export interface TokenGenerator {
    /** A new secret: at least 256 random bits, base64url. */
    generate(): string;
    /** The SHA-256 of a token (hex); stores keep only this. */
    digest(token: string): string;
}
//# sourceMappingURL=token-generator.d.ts.map