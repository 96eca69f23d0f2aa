import {
  canonicalScopes,
  fieldError,
  mayGrant,
  scopes as allScopes,
  notFound,
  pageOffset,
  personalToken,
  personalTokenLimits,
  personalTokenRandomLength,
  validationFailed,
  type FieldError,
  type PageRequest,
  type PersonalTokenCreateInput,
  type UserId,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { actorScopes, type Actor } from '../actor.js';
import { acceptBody, acceptPage, type DecodedBody, type DecodedQuery } from '../decoded.js';
import { isCustomer, requireRole } from '../policy.js';
import type { PersonalTokenRecord } from '../ports/personal-token-store.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import type { ListResult } from '../views.js';

// Personal access tokens (contract §8.1). Only login tokens reach these (scopes.ts: 'login'):
// a personal token cannot mint, list or revoke tokens. Anyone makes tokens for themselves;
// admins read and revoke anyone's, and cannot make them for others.

/** A token as made: the record, and the token itself, shown in this answer only. */
export interface CreatedPersonalToken {
  readonly record: PersonalTokenRecord;
  readonly token: string;
}

export type PersonalTokenList = ListResult<PersonalTokenRecord>;

const dayMs = 86_400_000;

/** Whose tokens a request names: the caller's own, or (admins) another user's. Customers see no other user (404). */
const ownerOf = async (ports: Ports, actor: Actor, id: UserId | 'me'): Promise<Outcome<UserId>> => {
  if (id === 'me' || id === actor.user.id) return E.right(actor.user.id);
  if (isCustomer(actor)) return E.left(notFound('user', id));
  const denied = requireRole(actor, ['admin'], "read or revoke another user's personal access tokens");
  if (denied !== null) return E.left(denied);
  return (await ports.users.findById(id)) === null ? E.left(notFound('user', id)) : E.right(id);
};

export const createPersonalToken = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedBody<PersonalTokenCreateInput>,
): Promise<Outcome<CreatedPersonalToken>> => {
  const accepted = acceptBody(decoded);
  if (E.isLeft(accepted)) return accepted;
  const input = accepted.right;
  const now = ports.clock.now();
  const errors: FieldError[] = [];
  if (input.scopes.length === 0) errors.push(fieldError('scopes', 'invalid_length', 'must name at least one scope'));
  // A token never holds what its maker lacks (contract §11): within the login token's scopes and the role's.
  const held = actorScopes(actor);
  const beyond = input.scopes.filter((s) => !mayGrant(held, actor.user.role, s));
  if (beyond.length > 0) {
    const grantable = allScopes.filter((s) => mayGrant(held, actor.user.role, s));
    errors.push(
      fieldError(
        'scopes',
        'not_permitted',
        `a token cannot hold scopes that the login token making it lacks, or that ${actor.user.role === 'customer' ? 'a' : 'an'} ${actor.user.role} cannot use: ${beyond.join(' ')} (this login token can give ${grantable.length === 0 ? 'none' : grantable.join(' ')})`,
      ),
    );
  }
  const expiresAt = input.expiresAt ?? now + personalTokenLimits.defaultDays * dayMs;
  if (expiresAt <= now) errors.push(fieldError('expiresAt', 'invalid_value', 'must be in the future'));
  if (expiresAt > now + personalTokenLimits.maxDays * dayMs)
    errors.push(
      fieldError('expiresAt', 'invalid_value', `must be at most ${String(personalTokenLimits.maxDays)} days ahead`),
    );
  if (errors.length > 0) return E.left(validationFailed(errors));
  const token = personalToken(ports.secrets.base62(personalTokenRandomLength));
  const record: PersonalTokenRecord = {
    id: await ports.ids.next('personal-token'),
    userId: actor.user.id,
    name: input.name,
    scopes: canonicalScopes(input.scopes),
    hash: ports.secrets.digest(token),
    createdAt: now,
    expiresAt,
    lastUsedAt: null,
  };
  const { maxLive } = personalTokenLimits;
  if (!(await ports.personalTokens.insert(record, { maxLive, now })))
    return E.left(
      validationFailed([
        fieldError(
          '',
          'limit_reached',
          `you already have ${String(maxLive)} personal access tokens that have not expired, the most a user may have; revoke one (DELETE /v1/users/me/tokens/{id}) before making another`,
        ),
      ]),
    );
  return E.right({ record, token });
};

export const listPersonalTokens = async (
  ports: Ports,
  actor: Actor,
  id: UserId | 'me',
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<PersonalTokenList>> => {
  const owner = await ownerOf(ports, actor, id);
  if (E.isLeft(owner)) return owner;
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const found = await ports.personalTokens.list(owner.right, pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const getPersonalToken = async (
  ports: Ports,
  actor: Actor,
  id: UserId | 'me',
  tokenId: number,
): Promise<Outcome<PersonalTokenRecord>> => {
  const owner = await ownerOf(ports, actor, id);
  if (E.isLeft(owner)) return owner;
  const record = await ports.personalTokens.findById(tokenId);
  return record?.userId === owner.right ? E.right(record) : E.left(notFound('token', tokenId));
};

/** Revoked at once: the next request with it, in any process, is 401. Answers the token as it was. */
export const revokePersonalToken = async (
  ports: Ports,
  actor: Actor,
  id: UserId | 'me',
  tokenId: number,
): Promise<Outcome<PersonalTokenRecord>> => {
  const found = await getPersonalToken(ports, actor, id, tokenId);
  if (E.isLeft(found)) return found;
  return (await ports.personalTokens.revoke(tokenId)) ? found : E.left(notFound('token', tokenId));
};
