import {
  curlOn,
  idErrors,
  listOf,
  roles,
  writable,
  writeErrors,
  type Operation,
  type OperationContext,
} from './operation.js';
import { ref } from '../json.js';

// routes/users.ts: users, and the caller as /v1/users/me.

export const userOperations = ({ origin, ex }: OperationContext): Operation[] => {
  const curl = curlOn(origin);
  // /v1/users/me and /v1/users/{user_id} offer the same four methods; only whom they act on differs.
  const userOps = (path: string, me: boolean): Operation[] => {
    const p = me ? [] : ['UserId'];
    const target = me ? 'the caller' : 'a user';
    const concrete = path.replace('{user_id}', '12');
    return [
      {
        path,
        method: 'get',
        id: me ? 'getMe' : 'getUser',
        tag: 'Users',
        summary: `Read ${target}`,
        description: `${me ? 'The user the token belongs to.' : 'One user.'}${roles(me ? 'any.' : 'customer: self only (anyone else is 404); agent, admin: any.')}`,
        access: 'token',
        params: p,
        success: { status: 200, shape: 'single', description: 'The user.', schema: ref('User'), example: ex.user() },
        errors: me ? [] : idErrors,
        curl: curl('GET', concrete),
      },
      {
        path,
        method: 'put',
        id: me ? 'replaceMe' : 'replaceUser',
        tag: 'Users',
        summary: `Replace ${target}`,
        description: `Every writable field; password may be omitted (it is kept).${roles('customer, agent: self, name and password only (e-mail and role as they are); admin: any.')}`,
        access: 'token',
        params: p,
        body: { schema: 'UserReplace', example: ex.userReplace },
        success: writable('written', 'User', ex.user({ name: 'Ada King' })),
        errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
        curl: curl('PUT', concrete, ex.userReplace),
      },
      {
        path,
        method: 'patch',
        id: me ? 'patchMe' : 'patchUser',
        tag: 'Users',
        summary: `Change fields of ${target}`,
        description: `JSON merge patch (RFC 7396): only the fields given change.${roles('customer, agent: own name and password; admin: any.')}`,
        access: 'token',
        params: p,
        body: { schema: 'UserPatch', example: ex.userPatch, mergePatch: true },
        success: writable('written', 'User', ex.user({ name: 'Ada King' })),
        errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
        curl: curl('PATCH', concrete, ex.userPatch),
      },
      {
        path,
        method: 'delete',
        id: me ? 'deleteMe' : 'deleteUser',
        tag: 'Users',
        summary: `Delete ${target}`,
        description: `Answers the deleted user. An admin cannot delete their own account (409).${roles('admin.')}`,
        access: 'token',
        params: p,
        success: writable('written', 'User', ex.user()),
        errors: [...idErrors, 'Conflict', 'PreconditionFailed'],
        curl: curl('DELETE', concrete),
      },
    ];
  };
  return [
    {
      path: '/v1/users',
      method: 'get',
      id: 'listUsers',
      tag: 'Users',
      summary: 'List users',
      description: `A bare JSON array, paged.${roles('agent, admin.')}`,
      access: 'token',
      params: ['Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of users.',
        schema: listOf('User'),
        example: [ex.user()],
      },
      errors: [],
      curl: curl('GET', '/v1/users?per_page=100'),
    },
    {
      path: '/v1/users',
      method: 'post',
      id: 'createUser',
      tag: 'Users',
      summary: 'Create a user',
      description: `e-mail addresses are unique (case-insensitively).${roles('admin.')}`,
      access: 'token',
      body: { schema: 'UserCreate', example: ex.userCreate },
      success: writable('created', 'User', ex.user()),
      errors: writeErrors,
      curl: curl('POST', '/v1/users', ex.userCreate),
    },
    ...userOps('/v1/users/me', true),
    ...userOps('/v1/users/{user_id}', false),
  ];
};
