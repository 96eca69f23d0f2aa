export interface PasswordHasher {
    /** An argon2id hash of the password, salted. */
    hash(password: string): Promise<string>;
    verify(hash: string, password: string): Promise<boolean>;
}
//# sourceMappingURL=password-hasher.d.ts.map