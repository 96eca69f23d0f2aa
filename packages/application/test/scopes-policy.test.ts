import { forbidden, forbiddenFields as forbiddenNamed, insufficientScope } from '@support/domain';
import { aUser } from '@support/domain/testing';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../src/actor.js';
import { byActor } from '../src/actor.js';
import { withDeadline } from '../src/deadline.js';
import { forbiddenFields, requireRole } from '../src/policy.js';
import { acceptedScopes, checkNeeds, scoped } from '../src/scopes.js';

// The rules beside the use cases, tested where they live: the scope a token needs
// (scopes.ts), the role matrix's refusals (policy.ts), who the feed names (actor.ts), and the
// deadline of a long poll (deadline.ts).

const customer: Actor = { user: aUser({ id: 1, role: 'customer' }) };
const agent: Actor = { user: aUser({ id: 2, role: 'agent' }) };
const admin: Actor = { user: aUser({ id: 3, role: 'admin' }) };
const personal: Actor = {
  user: aUser({ id: 2, role: 'agent' }),
  token: { id: 7, name: 'CRM' },
  scopes: ['tickets:write'],
};

describe('scopes', () => {
  it('a login token without scope holds every scope: only the role decides', () => {
    for (const needs of ['tickets:read', 'webhooks:manage', 'none', 'login'] as const)
      expect(checkNeeds(customer, needs), needs).to.equal(null);
  });

  it('a narrowed token is refused what its scopes do not cover, naming what is needed; write covers read', () => {
    expect(checkNeeds(personal, 'tickets:read')).to.equal(null);
    expect(checkNeeds(personal, 'tickets:write')).to.equal(null);
    expect(checkNeeds(personal, 'users:read')).to.deep.equal(insufficientScope(['users:read']));
    expect(checkNeeds(personal, 'none')).to.equal(null);
  });

  it('a personal access token cannot manage personal access tokens', () => {
    const refused = checkNeeds(personal, 'login');
    expect(refused?._tag).to.equal('Forbidden');
    expect(checkNeeds({ ...agent, scopes: ['tickets:read'] }, 'login')).to.equal(null);
  });

  it('names the scopes an operation accepts: none for none and login', () => {
    expect(acceptedScopes('groups:write')).to.deep.equal(['groups:write']);
    expect(acceptedScopes('none')).to.deep.equal([]);
    expect(acceptedScopes('login')).to.deep.equal([]);
  });

  it('runs a scoped use case only when the token covers it, else answers the refusal', async () => {
    const ran: unknown[][] = [];
    const useCase = scoped('users:read', (actor: Actor, a: number, b: string) => {
      ran.push([actor.user.id, a, b]);
      return Promise.resolve(E.right(`${String(a)}${b}`));
    });
    expect(await useCase(agent, 1, 'x')).to.deep.equal(E.right('1x'));
    expect(await useCase(personal, 2, 'y')).to.deep.equal(E.left(insufficientScope(['users:read'])));
    expect(ran).to.deep.equal([[2, 1, 'x']]);
  });
});

describe('policy', () => {
  it('requireRole names the role refused and what it may not do', () => {
    expect(requireRole(customer, ['agent', 'admin'], 'list users')).to.deep.equal(
      forbidden('customers may not list users'),
    );
    expect(requireRole(agent, ['admin'], 'delete tickets')).to.deep.equal(forbidden('agents may not delete tickets'));
    expect(requireRole(admin, ['customer'], 'x')).to.deep.equal(forbidden('admins may not x'));
    expect(requireRole(admin, ['admin'], 'x')).to.equal(null);
  });

  it('forbiddenFields names one field or several', () => {
    expect(forbiddenFields(customer, ['priority'])).to.deep.equal(
      forbiddenNamed('customers may not write the field', ['priority']),
    );
    expect(forbiddenFields(agent, ['role', 'email'])).to.deep.equal(
      forbiddenNamed('agents may not write the fields', ['role', 'email']),
    );
  });
});

describe('actor', () => {
  it('the feed names the user, and the personal token when one was used', () => {
    expect(byActor(customer)).to.deep.equal({ type: 'user', id: 1 });
    expect(byActor(personal)).to.deep.equal({ type: 'user', id: 2, token: { id: 7, name: 'CRM' } });
  });
});

describe('withDeadline', () => {
  const waitForAbort = (signal: AbortSignal): Promise<string> =>
    new Promise((resolve) => {
      signal.addEventListener('abort', () => {
        resolve('aborted');
      });
    });

  it('aborts the wait when the time is up', async () => {
    const started = Date.now();
    expect(await withDeadline(new AbortController().signal, 20, waitForAbort)).to.equal('aborted');
    expect(Date.now() - started).to.be.at.least(15);
  });

  it('aborts the wait when the outer signal does, at once when it already has', async () => {
    const outer = new AbortController();
    const waiting = withDeadline(outer.signal, 60_000, waitForAbort);
    outer.abort();
    expect(await waiting).to.equal('aborted');
    expect(await withDeadline(outer.signal, 60_000, (signal) => Promise.resolve(signal.aborted))).to.equal(true);
  });

  it('answers what the wait answers, and leaves no listener on the outer signal', async () => {
    const outer = new AbortController();
    const seen: AbortSignal[] = [];
    expect(
      await withDeadline(outer.signal, 60_000, (signal) => {
        seen.push(signal);
        return Promise.resolve(42);
      }),
    ).to.equal(42);
    outer.abort();
    expect(seen[0]?.aborted).to.equal(false);
  });
});
