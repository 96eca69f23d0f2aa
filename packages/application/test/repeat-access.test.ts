import { forbidden, insufficientScope, scopes, type Role, type Scope } from '@support/domain';
import { expect } from 'chai';
import { repeatAccess, type Actor } from '../src/index.js';
import { world, type World } from './support/world.js';

// Who may see a repeat of an Idempotency-Key request (contract §11): the repeat is authorized
// again, by today's role and today's token, before the kept answer is given. Rule by rule: the
// scope each operation needs, the roles that may run it (with the use case's own refusal), and
// the webhook operations that deliver the whole feed needing events:read as well.

type Operation = keyof typeof repeatAccess;

/** Each operation: its scope, and the refusal a non-admin gets (null: every role may). */
const expected: Record<Operation, { needs: Scope | 'login'; refusedAs: string | null; feed: boolean }> = {
  createTicket: { needs: 'tickets:write', refusedAs: null, feed: false },
  createMessage: { needs: 'tickets:write', refusedAs: null, feed: false },
  createUpload: { needs: 'tickets:write', refusedAs: null, feed: false },
  createMyToken: { needs: 'login', refusedAs: null, feed: false },
  createUser: { needs: 'users:write', refusedAs: 'create users', feed: false },
  createGroup: { needs: 'groups:write', refusedAs: 'change groups', feed: false },
  createTicketField: { needs: 'tickets:write', refusedAs: 'define ticket fields', feed: false },
  createWebhook: { needs: 'webhooks:manage', refusedAs: 'manage webhooks', feed: true },
  rotateWebhookSecret: { needs: 'webhooks:manage', refusedAs: 'manage webhooks', feed: false },
  replayWebhook: { needs: 'webhooks:manage', refusedAs: 'manage webhooks', feed: true },
};
const operations = Object.keys(expected) as Operation[];

const roleWords: Record<Role, string> = { customer: 'customers', agent: 'agents', admin: 'admins' };

const as = async (w: World, role: Role): Promise<Actor> => (role === 'admin' ? w.admin : w.user(role));
const scoped = (actor: Actor, held: readonly Scope[]): Actor => ({ ...actor, scopes: held });
const personal = (actor: Actor, held: readonly Scope[]): Actor => ({
  ...actor,
  scopes: held,
  token: { id: 7, name: 'CRM' },
});

describe('use case: who may see a repeat of an Idempotency-Key request (contract §11)', () => {
  it('names exactly the operations a key can be repeated for', () => {
    expect(Object.keys(repeatAccess).sort()).to.deep.equal([...operations].sort());
  });

  for (const op of operations) {
    const rule = expected[op];

    it(`${op}: the roles that may run it see the repeat with a login token of every scope`, async () => {
      const w = await world();
      for (const role of ['customer', 'agent', 'admin'] as const) {
        const actor = await as(w, role);
        const refusal = w.app.idempotency.mayRepeat(actor, repeatAccess[op]);
        if (role === 'admin' || rule.refusedAs === null) expect(refusal, `${op} as ${role}`).to.equal(null);
        else expect(refusal).to.deep.equal(forbidden(`${roleWords[role]} may not ${rule.refusedAs}`));
      }
    });

    it(`${op}: a token without its scope is refused insufficient_scope, naming it`, async () => {
      const w = await world();
      const needs = rule.needs;
      if (needs === 'login') {
        // Personal tokens cannot manage personal tokens, whatever they hold.
        const refusal = w.app.idempotency.mayRepeat(personal(w.admin, scopes), repeatAccess[op]);
        expect(refusal?._tag).to.equal('Forbidden');
        expect(w.app.idempotency.mayRepeat(scoped(w.admin, ['tickets:read']), repeatAccess[op])).to.equal(null);
        return;
      }
      const without = scopes.filter((s) => s !== needs);
      expect(w.app.idempotency.mayRepeat(scoped(w.admin, without), repeatAccess[op])).to.deep.equal(
        insufficientScope([needs]),
      );
      // The scope alone (with the feed's, where it needs it) is enough for an admin.
      const enough: Scope[] = rule.feed ? [needs, 'events:read'] : [needs];
      expect(w.app.idempotency.mayRepeat(scoped(w.admin, enough), repeatAccess[op])).to.equal(null);
      expect(w.app.idempotency.mayRepeat(personal(w.admin, enough), repeatAccess[op])).to.equal(null);
    });

    it(`${op}: ${rule.feed ? 'needs' : 'does not need'} events:read besides its own scope`, async () => {
      const w = await world();
      if (rule.needs === 'login') {
        expect(w.app.idempotency.mayRepeat(scoped(w.admin, ['tickets:read']), repeatAccess[op])).to.equal(null);
        return;
      }
      const noFeed = scopes.filter((s) => s !== 'events:read');
      const refusal = w.app.idempotency.mayRepeat(scoped(w.admin, noFeed), repeatAccess[op]);
      expect(refusal).to.deep.equal(rule.feed ? insufficientScope(['events:read']) : null);
    });
  }

  it('checks the scope before the role: a customer with a narrowed token is told the scope it lacks', async () => {
    const w = await world();
    const customer = await w.customer();
    expect(w.app.idempotency.mayRepeat(scoped(customer, ['tickets:read']), repeatAccess.createUser)).to.deep.equal(
      insufficientScope(['users:write']),
    );
    // With the scope, the role decides.
    expect(w.app.idempotency.mayRepeat(scoped(customer, ['users:write']), repeatAccess.createUser)).to.deep.equal(
      forbidden('customers may not create users'),
    );
  });

  it('checks the role before the feed scope: an agent without events:read is told its role may not', async () => {
    const w = await world();
    const agent = await w.agent();
    expect(w.app.idempotency.mayRepeat(scoped(agent, ['webhooks:manage']), repeatAccess.createWebhook)).to.deep.equal(
      forbidden('agents may not manage webhooks'),
    );
  });

  it('a demoted admin no longer sees the repeat of an admin-only request', async () => {
    const w = await world();
    const other = await w.user('admin');
    expect(w.app.idempotency.mayRepeat(other, repeatAccess.createGroup)).to.equal(null);
    const demoted: Actor = { ...other, user: { ...other.user, role: 'agent' } };
    expect(w.app.idempotency.mayRepeat(demoted, repeatAccess.createGroup)).to.deep.equal(
      forbidden('agents may not change groups'),
    );
  });
});
