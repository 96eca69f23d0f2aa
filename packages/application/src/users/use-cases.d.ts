import { type PageRequest, type User, type UserCreateInput, type UserId, type UserPatchInput, type UserReplaceInput } from '@support/domain';
import type { Actor } from '../actor.js';
import type { WriteOptions } from '../application.js';
import { type DecodedBody, type DecodedQuery } from '../decoded.js';
import type { Ports } from '../ports/index.js';
import { type Outcome } from '../shared.js';
import type { UserList } from '../views.js';
export declare const listUsers: (ports: Ports, actor: Actor, decoded: DecodedQuery<PageRequest>) => Promise<Outcome<UserList>>;
export declare const getUser: (ports: Ports, actor: Actor, id: UserId | "me") => Promise<Outcome<User>>;
export declare const createUserUseCase: (ports: Ports, actor: Actor, decoded: DecodedBody<UserCreateInput>) => Promise<Outcome<User>>;
export declare const replaceUserUseCase: (ports: Ports, actor: Actor, id: UserId | "me", decoded: DecodedBody<UserReplaceInput>, options?: WriteOptions<User>) => Promise<Outcome<User>>;
export declare const patchUserUseCase: (ports: Ports, actor: Actor, id: UserId | "me", decoded: DecodedBody<UserPatchInput>, options?: WriteOptions<User>) => Promise<Outcome<User>>;
export declare const deleteUserUseCase: (ports: Ports, actor: Actor, id: UserId, options?: WriteOptions<User>) => Promise<Outcome<User>>;
//# sourceMappingURL=use-cases.d.ts.map