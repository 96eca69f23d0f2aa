import { acceptedScopes, operationNeeds as n, type Needs } from '@support/application';
import type { Operation } from './operation.js';

// Which use case's scope each operation of the document needs: its values are read from the
// one home of scopes (the application's scopes.ts), never written here. The document's
// security requirements (render.ts) and the answers' X-Accepted-OAuth-Scopes (routeNeeds) come
// from this; the role x scope table test checks, over HTTPS, that each operation is refused
// exactly outside these scopes.

const byOperationId: Readonly<Record<string, Needs>> = {
  listTickets: n.tickets.list,
  listRecentlyClosedTickets: n.tickets.list,
  getTicket: n.tickets.get,
  getTicketSingularAlias: n.tickets.get,
  createTicket: n.tickets.create,
  replaceTicket: n.tickets.replace,
  patchTicket: n.tickets.patch,
  deleteTicket: n.tickets.delete,
  listMessages: n.messages.list,
  getMessage: n.messages.get,
  createMessage: n.messages.create,
  replaceMessage: n.messages.replace,
  patchMessage: n.messages.patch,
  deleteMessage: n.messages.delete,
  getMe: n.users.me,
  replaceMe: n.users.replace,
  patchMe: n.users.patch,
  deleteMe: n.users.delete,
  listUsers: n.users.list,
  getUser: n.users.get,
  createUser: n.users.create,
  replaceUser: n.users.replace,
  patchUser: n.users.patch,
  deleteUser: n.users.delete,
  listGroups: n.groups.list,
  getGroup: n.groups.get,
  listGroupUsers: n.groups.members,
  createGroup: n.groups.create,
  replaceGroup: n.groups.replace,
  patchGroup: n.groups.patch,
  deleteGroup: n.groups.delete,
  listEvents: n.events.list,
  createMyToken: n.tokens.create,
  listMyTokens: n.tokens.list,
  listUserTokens: n.tokens.list,
  getMyToken: n.tokens.get,
  getUserToken: n.tokens.get,
  revokeMyToken: n.tokens.revoke,
  revokeUserToken: n.tokens.revoke,
  listWebhooks: n.webhooks.list,
  getWebhook: n.webhooks.get,
  createWebhook: n.webhooks.create,
  patchWebhook: n.webhooks.patch,
  deleteWebhook: n.webhooks.delete,
  rotateWebhookSecret: n.webhooks.rotateSecret,
  replayWebhook: n.webhooks.replay,
  listWebhookDeliveries: n.webhooks.deliveries,
};

/** What an operation needs of the token; every operation that takes a token is listed (else the document is not built). */
export const needsOf = (op: Operation): Needs | null => {
  if (op.access !== 'token') return null;
  const needs = byOperationId[op.id];
  if (needs === undefined)
    throw new Error(`operation ${op.id} takes a token but names no scope (openapi/operations/needs.ts)`);
  return needs;
};

/** /v1/tickets/{ticket_id} as the router spells it: /v1/tickets/:ticketId. */
const routerPath = (documented: string): string =>
  documented.replace(
    /\{([a-z_]+)\}/g,
    (_, name: string) => `:${name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())}`,
  );

/**
 * X-Accepted-OAuth-Scopes by method and router path (HEAD as GET): "" for an operation that
 * needs no scope, or for a path no operation takes a token on.
 */
export const routeNeeds = (ops: readonly Operation[]): ((method: string, path: string) => string) => {
  const table = new Map<string, string>();
  for (const op of ops) {
    const needs = needsOf(op);
    if (needs !== null)
      table.set(`${op.method.toUpperCase()} ${routerPath(op.path)}`, acceptedScopes(needs).join(', '));
  }
  return (method, path) => table.get(`${method === 'HEAD' ? 'GET' : method} ${path}`) ?? '';
};
