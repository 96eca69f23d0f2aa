import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import { type AuthConfig, type OAuthError, type TokenGrant } from './oauth.js';
export interface AuthUseCases {
    authenticate(token: string | null): Promise<Outcome<Actor>>;
    passwordGrant(username: string, password: string): Promise<E.Either<OAuthError, TokenGrant>>;
    refreshGrant(refreshToken: string): Promise<E.Either<OAuthError, TokenGrant>>;
    revoke(token: string): Promise<void>;
}
export declare const authUseCases: (ports: Ports, config: AuthConfig) => AuthUseCases;
//# sourceMappingURL=use-cases.d.ts.map