import { forbidden, insufficientScope, scopeCovers, type DomainError, type Scope } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { actorScopes, type Actor } from './actor.js';

// THE scope each operation needs (contract §8.2), beside the role matrix (policy.ts): a
// request is allowed when the role allows it (policy.ts, in the use case) and the token's
// scopes cover this. The use cases are bound to it in create-application.ts, and the OpenAPI
// document's security requirements and X-Accepted-OAuth-Scopes are read from it, so the
// three cannot disagree.

/** A scope; `none`: any token (a token may always learn whose it is); `login`: login tokens only (managing personal tokens). */
export type Needs = Scope | 'none' | 'login';

export const operationNeeds = {
  tickets: {
    list: 'tickets:read',
    get: 'tickets:read',
    create: 'tickets:write',
    replace: 'tickets:write',
    patch: 'tickets:write',
    delete: 'tickets:write',
  },
  ticketFields: {
    list: 'tickets:read',
    get: 'tickets:read',
    create: 'tickets:write',
    patch: 'tickets:write',
    delete: 'tickets:write',
  },
  messages: {
    list: 'tickets:read',
    get: 'tickets:read',
    create: 'tickets:write',
    replace: 'tickets:write',
    patch: 'tickets:write',
    delete: 'tickets:write',
  },
  attachments: {
    upload: 'tickets:write',
    get: 'tickets:read',
    content: 'tickets:read',
    list: 'tickets:read',
    delete: 'tickets:write',
  },
  users: {
    me: 'none',
    list: 'users:read',
    get: 'users:read',
    create: 'users:write',
    replace: 'users:write',
    patch: 'users:write',
    delete: 'users:write',
  },
  groups: {
    list: 'groups:read',
    get: 'groups:read',
    // A group's members are users, shown whole: users:read, as embed (contract §11; groups:read
    // alone listed e-mail addresses a token could not read at /v1/users/{id}).
    members: 'users:read',
    create: 'groups:write',
    replace: 'groups:write',
    patch: 'groups:write',
    delete: 'groups:write',
  },
  events: { list: 'events:read' },
  tokens: { create: 'login', list: 'login', get: 'login', revoke: 'login' },
  webhooks: {
    list: 'webhooks:manage',
    get: 'webhooks:manage',
    create: 'webhooks:manage',
    patch: 'webhooks:manage',
    delete: 'webhooks:manage',
    rotateSecret: 'webhooks:manage',
    replay: 'webhooks:manage',
    deliveries: 'webhooks:manage',
  },
} as const satisfies Readonly<Record<string, Readonly<Record<string, Needs>>>>;

/** The scopes an operation's answer names in X-Accepted-OAuth-Scopes and the OpenAPI document in its security requirement. */
export const acceptedScopes = (needs: Needs): readonly Scope[] =>
  needs === 'none' || needs === 'login' ? [] : [needs];

/** Whether the caller's token may run an operation that needs `needs`; the refusal when not. */
export const checkNeeds = (a: Actor, needs: Needs): DomainError | null => {
  switch (needs) {
    case 'none':
      return null;
    case 'login':
      return a.token === undefined
        ? null
        : forbidden(
            'a personal access token cannot manage personal access tokens: use a login token (POST /v1/oauth/token)',
          );
    default:
      return scopeCovers(actorScopes(a), needs) ? null : insufficientScope([needs]);
  }
};

/** A use case that runs only when the caller's token covers `needs`, else answers the refusal (and changes nothing). */
export const scoped =
  <A extends readonly unknown[], T>(
    needs: Needs,
    run: (actor: Actor, ...rest: A) => Promise<E.Either<DomainError, T>>,
  ) =>
  (actor: Actor, ...rest: A): Promise<E.Either<DomainError, T>> => {
    const refused = checkNeeds(actor, needs);
    return refused === null ? run(actor, ...rest) : Promise.resolve(E.left(refused));
  };
