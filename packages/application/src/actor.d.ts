import type { Role, User, UserId } from '@support/domain';
/** Who is calling: the authenticated user, loaded fresh for every request. */
export interface Actor {
    readonly user: User;
}
export declare const actorId: (a: Actor) => UserId;
export declare const actorRole: (a: Actor) => Role;
//# sourceMappingURL=actor.d.ts.map