import { type Group, type GroupCreateInput, type GroupId, type GroupPatchInput, type PageRequest } from '@support/domain';
import type { Actor } from '../actor.js';
import type { WriteOptions } from '../application.js';
import { type DecodedBody, type DecodedQuery } from '../decoded.js';
import type { Ports } from '../ports/index.js';
import { type Outcome } from '../shared.js';
import type { GroupList, UserList } from '../views.js';
export declare const listGroups: (ports: Ports, actor: Actor, decoded: DecodedQuery<PageRequest>) => Promise<Outcome<GroupList>>;
export declare const getGroup: (ports: Ports, actor: Actor, id: GroupId) => Promise<Outcome<Group>>;
export declare const groupMembers: (ports: Ports, actor: Actor, id: GroupId, decoded: DecodedQuery<PageRequest>) => Promise<Outcome<UserList>>;
export declare const createGroupUseCase: (ports: Ports, actor: Actor, decoded: DecodedBody<GroupCreateInput>) => Promise<Outcome<Group>>;
export declare const replaceGroupUseCase: (ports: Ports, actor: Actor, id: GroupId, decoded: DecodedBody<GroupCreateInput>, options?: WriteOptions<Group>) => Promise<Outcome<Group>>;
export declare const patchGroupUseCase: (ports: Ports, actor: Actor, id: GroupId, decoded: DecodedBody<GroupPatchInput>, options?: WriteOptions<Group>) => Promise<Outcome<Group>>;
export declare const deleteGroupUseCase: (ports: Ports, actor: Actor, id: GroupId, options?: WriteOptions<Group>) => Promise<Outcome<Group>>;
//# sourceMappingURL=use-cases.d.ts.map