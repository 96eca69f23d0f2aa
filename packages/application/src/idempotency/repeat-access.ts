import { insufficientScope, roles, scopeCovers, type DomainError, type Role, type Scope } from '@support/domain';
import { actorScopes, type Actor } from '../actor.js';
import { requireRole } from '../policy.js';
import { checkNeeds, operationNeeds as n, type Needs } from '../scopes.js';

// What an operation a client may repeat with an Idempotency-Key (every POST under /v1 but the
// token endpoints) takes from its caller, checked again before a repeat is answered with the
// kept answer (contract §11): a demoted admin, or a token without the scope, gets today's 403,
// never the answer the first request earned. The same table the use cases check against.

export interface RepeatAccess {
  /** The scope the token must hold (the operation's own, operationNeeds). */
  readonly needs: Needs;
  /** The roles that may run the operation at all. */
  readonly roles: readonly Role[];
  /** What a refused role may not do, in the words of the use case's own refusal. */
  readonly what: string;
  /** Scopes needed besides `needs` (a webhook reads the whole feed: events:read). */
  readonly alsoScopes?: readonly Scope[];
}

const everyone = roles;
const admins: readonly Role[] = ['admin'];

/** A webhook delivers the whole change feed: creating one, aiming one (url, events) or replaying one needs events:read too (contract §11). */
export const webhookFeedScopes: readonly Scope[] = ['events:read'];

/** The operations a key can be repeated for, by the OpenAPI operation id their route declares. */
export const repeatAccess = {
  createTicket: { needs: n.tickets.create, roles: everyone, what: 'create tickets' },
  createMessage: { needs: n.messages.create, roles: everyone, what: 'write messages' },
  createUpload: { needs: n.attachments.upload, roles: everyone, what: 'upload files' },
  createMyToken: { needs: n.tokens.create, roles: everyone, what: 'make personal access tokens' },
  createUser: { needs: n.users.create, roles: admins, what: 'create users' },
  createGroup: { needs: n.groups.create, roles: admins, what: 'change groups' },
  createTicketField: { needs: n.ticketFields.create, roles: admins, what: 'define ticket fields' },
  createWebhook: { needs: n.webhooks.create, roles: admins, what: 'manage webhooks', alsoScopes: webhookFeedScopes },
  rotateWebhookSecret: { needs: n.webhooks.rotateSecret, roles: admins, what: 'manage webhooks' },
  replayWebhook: { needs: n.webhooks.replay, roles: admins, what: 'manage webhooks', alsoScopes: webhookFeedScopes },
} as const satisfies Readonly<Record<string, RepeatAccess>>;

/** The scopes of `wanted` the caller's token lacks, as the refusal (insufficient_scope), or null. */
export const missingScopes = (actor: Actor, wanted: readonly Scope[]): DomainError | null => {
  const missing = wanted.filter((s) => !scopeCovers(actorScopes(actor), s));
  return missing.length === 0 ? null : insufficientScope(missing);
};

/** Whether the caller may run (and so see a repeat of) an operation with this access; the refusal when not. */
export const checkRepeatAccess = (actor: Actor, access: RepeatAccess): DomainError | null =>
  checkNeeds(actor, access.needs) ??
  requireRole(actor, access.roles, access.what) ??
  missingScopes(actor, access.alsoScopes ?? []);
