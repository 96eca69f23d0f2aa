import type { Role } from './role.js';

// Scopes (contract §8.2): what a token may do, on top of what its user's role may do. A request
// needs both; a scope never widens a role.

export const scopes = [
  'tickets:read',
  'tickets:write',
  'users:read',
  'users:write',
  'groups:read',
  'groups:write',
  'events:read',
  'webhooks:manage',
] as const;
export type Scope = (typeof scopes)[number];

export const isScope = (s: string): s is Scope => (scopes as readonly string[]).includes(s);

/** The other scope that includes each scope, if any: X:write includes X:read (contract §8.2). */
const includedIn: Readonly<Record<Scope, Scope | null>> = {
  'tickets:read': 'tickets:write',
  'tickets:write': null,
  'users:read': 'users:write',
  'users:write': null,
  'groups:read': 'groups:write',
  'groups:write': null,
  'events:read': null,
  'webhooks:manage': null,
};

/** Whether `held` covers `needed`: the scope itself, or for X:read, X:write (which includes it). */
export const scopeCovers = (held: readonly Scope[], needed: Scope): boolean =>
  held.some((h) => h === needed || h === includedIn[needed]);

/**
 * Every scope a role can use (contract §3's matrix): what a login token asked for without
 * `scope` is said to hold, and what a narrowed one can get. Customers and agents write
 * themselves (name, password: users:write); agents also read users, groups and the feed;
 * admins everything. What the role allows inside a scope is the role matrix's to say.
 */
export const roleScopes = (role: Role): readonly Scope[] => {
  switch (role) {
    case 'customer':
      return ['tickets:read', 'tickets:write', 'users:read', 'users:write'];
    case 'agent':
      return ['tickets:read', 'tickets:write', 'users:read', 'users:write', 'groups:read', 'events:read'];
    case 'admin':
      return scopes;
  }
};

/** Scopes in their canonical order, each once (the order of `scopes`). */
export const canonicalScopes = (given: readonly Scope[]): readonly Scope[] => scopes.filter((s) => given.includes(s));

/**
 * Whether a token holding `held`, of a user of `role`, may give a new token `wanted` (contract
 * §11): a token never holds a scope its maker's token lacks, nor one the role cannot use.
 * Covered as a request would be (X:write covers X:read).
 */
export const mayGrant = (held: readonly Scope[], role: Role, wanted: Scope): boolean =>
  scopeCovers(held, wanted) && scopeCovers(roleScopes(role), wanted);
