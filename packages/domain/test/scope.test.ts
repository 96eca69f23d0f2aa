import { expect } from 'chai';
import fc from 'fast-check';
import {
  canonicalScopes,
  isScope,
  mayGrant,
  roleScopes,
  roles,
  scopeCovers,
  scopes,
  type Role,
  type Scope,
} from '../src/index.js';

// Scopes (contract §8.2): the eight names, `X:write` includes `X:read` and nothing else
// includes anything, the scopes each role can use (§3, §8.2 "every scope its role can use"),
// and the one canonical order a token's scopes are stored and shown in.

/** What holding one scope allows, as the contract lists it: itself, and X:read for X:write. */
const contractImplies: Record<Scope, readonly Scope[]> = {
  'tickets:read': ['tickets:read'],
  'tickets:write': ['tickets:read', 'tickets:write'],
  'users:read': ['users:read'],
  'users:write': ['users:read', 'users:write'],
  'groups:read': ['groups:read'],
  'groups:write': ['groups:read', 'groups:write'],
  'events:read': ['events:read'],
  'webhooks:manage': ['webhooks:manage'],
};

const aScope = fc.constantFrom(...scopes);
const scopeLists = fc.array(aScope, { maxLength: 20 });

describe('domain: scopes (contract §8.2)', () => {
  it('are the eight names of the contract, in its order', () => {
    expect(scopes).to.deep.equal([
      'tickets:read',
      'tickets:write',
      'users:read',
      'users:write',
      'groups:read',
      'groups:write',
      'events:read',
      'webhooks:manage',
    ]);
  });

  it('recognise exactly those names, spelled exactly', () => {
    for (const s of scopes) expect(isScope(s), s).to.equal(true);
    for (const s of [
      '',
      'tickets',
      'tickets:',
      'tickets:admin',
      'webhooks:read',
      'events:write',
      'TICKETS:READ',
      ' tickets:read',
      'tickets:read ',
      'tickets:read tickets:write',
      'tickets.read',
    ])
      expect(isScope(s), JSON.stringify(s)).to.equal(false);
  });

  it('one held scope covers exactly the scopes the contract says: itself, and X:read for X:write', () => {
    for (const held of scopes)
      for (const needed of scopes)
        expect(scopeCovers([held], needed), `${held} covers ${needed}`).to.equal(
          contractImplies[held].includes(needed),
        );
  });

  it('a set of scopes covers what one of them covers, and nothing more', () => {
    fc.assert(
      fc.property(scopeLists, aScope, (held, needed) => {
        expect(scopeCovers(held, needed)).to.equal(held.some((h) => contractImplies[h].includes(needed)));
      }),
    );
    for (const needed of scopes) expect(scopeCovers([], needed), needed).to.equal(false);
  });

  it('the scopes a role can use: customers and agents write themselves, agents read groups and the feed, admins all', () => {
    const expected: Record<Role, readonly Scope[]> = {
      customer: ['tickets:read', 'tickets:write', 'users:read', 'users:write'],
      agent: ['tickets:read', 'tickets:write', 'users:read', 'users:write', 'groups:read', 'events:read'],
      admin: scopes,
    };
    for (const role of roles) {
      expect(roleScopes(role), role).to.deep.equal(expected[role]);
      expect(canonicalScopes(roleScopes(role)), `${role}: canonical order`).to.deep.equal(roleScopes(role));
    }
  });

  it('no role can use a write scope without its read scope', () => {
    for (const role of roles)
      for (const s of roleScopes(role))
        for (const implied of contractImplies[s]) expect(roleScopes(role), `${role}: ${s}`).to.include(implied);
  });
});

describe('domain: the canonical order of scopes', () => {
  it('is the contract’s order, each scope once, whatever order and repeats they were given in', () => {
    expect(canonicalScopes(['webhooks:manage', 'tickets:read', 'webhooks:manage', 'groups:write'])).to.deep.equal([
      'tickets:read',
      'groups:write',
      'webhooks:manage',
    ]);
    expect(canonicalScopes([])).to.deep.equal([]);
    fc.assert(
      fc.property(scopeLists, (given) => {
        const out = canonicalScopes(given);
        expect(out).to.deep.equal(scopes.filter((s) => given.includes(s)));
        expect(new Set(out).size, 'each once').to.equal(out.length);
      }),
    );
  });

  it('is stable: a permutation of the same scopes, or the canonical list itself, gives the same list', () => {
    fc.assert(
      fc.property(
        scopeLists.chain((given) =>
          fc.tuple(fc.constant(given), fc.shuffledSubarray(given, { minLength: given.length })),
        ),
        ([given, shuffled]) => {
          const out = canonicalScopes(given);
          expect(canonicalScopes(shuffled)).to.deep.equal(out);
          expect(canonicalScopes(out)).to.deep.equal(out);
        },
      ),
    );
  });

  it("a token gives a new token only scopes both it and its maker's role cover (contract §11)", () => {
    expect(mayGrant(['tickets:write'], 'agent', 'tickets:read')).to.equal(true);
    expect(mayGrant(['tickets:read'], 'agent', 'tickets:write')).to.equal(false);
    // An agent's role lacks webhooks:manage, whatever the token holds.
    expect(mayGrant(['webhooks:manage'], 'agent', 'webhooks:manage')).to.equal(false);
    expect(mayGrant(['webhooks:manage'], 'admin', 'webhooks:manage')).to.equal(true);
    expect(mayGrant(['users:write'], 'customer', 'users:read')).to.equal(true);
    expect(mayGrant(['users:write'], 'customer', 'groups:read')).to.equal(false);
  });
});
