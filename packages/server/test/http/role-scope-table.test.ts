import { expect } from 'chai';
import { roleScopes } from '@support/domain';
import type { Answer } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { arr, createTicket, idOf, obj, type Json } from '../support/resources.js';

// Role x scope (contract §8.2), driven by the served document: for every operation that
// takes a token, every role, and a personal token holding each one scope, the answer is 403
// 40303 (insufficient_scope, naming what the document says the operation needs, and changing
// nothing) exactly when that scope does not cover the operation's documented scopes; when it
// does, the role alone decides (never 40303). So the document's security requirements, the
// one home of scopes and the enforcement cannot disagree. Login-only operations refuse every
// personal token with 40301.

const allScopes = [
  'tickets:read',
  'tickets:write',
  'users:read',
  'users:write',
  'groups:read',
  'groups:write',
  'events:read',
  'webhooks:manage',
] as const;
const covers = (held: string, needed: string): boolean =>
  held === needed || (needed.endsWith(':read') && held === needed.replace(/:read$/, ':write'));
const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface DocOperation {
  readonly path: string;
  readonly method: (typeof methods)[number];
  readonly needs: readonly string[];
  readonly loginOnly: boolean;
  readonly body: unknown;
}

const operationsOf = (doc: Json): DocOperation[] => {
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const method of methods) {
      const op = item[method];
      if (op === undefined) continue;
      const security = op.security as { bearer?: string[] }[];
      if (security.length === 0) continue;
      const content = (
        op.requestBody as
          { content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> } | undefined
      )?.content?.['application/json'];
      out.push({
        path,
        method,
        needs: security[0]?.bearer ?? [],
        loginOnly: String(op.description).includes('a login token only'),
        body: content?.example ?? Object.values(content?.examples ?? {})[0]?.value,
      });
    }
  }
  return out;
};

describe('HTTP: role x scope, every documented operation (contract §8.2)', function () {
  this.timeout(300_000);
  let admin: string;
  let ops: DocOperation[];
  const ids: Record<string, number> = {};

  const api = suiteApi({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  before(async () => {
    admin = await api.adminToken();
    ops = operationsOf(obj(await api.get('/v1/openapi.json')));
    const customer = await api.userWithToken('customer', 'Table Customer');
    const group = await api.post('/v1/groups', { name: 'Table group' }, { token: admin });
    const ticket = await createTicket(api, admin, { subject: 'Table ticket', customer_id: customer.id });
    const message = await api.post(`/v1/tickets/${String(ticket.id)}/messages`, { body: 'Hello' }, { token: admin });
    const webhook = await api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] }, { token: admin });
    Object.assign(ids, {
      ticket_id: ticket.id,
      message_id: idOf(message),
      group_id: idOf(group),
      user_id: customer.id,
      webhook_id: idOf(webhook),
      token_id: 1,
    });
  });

  let latest = 0;
  /** The newest seq of the feed (every change appends an event: an unchanged seq is an unchanged store). */
  const newestSeq = async (): Promise<number> => {
    for (;;) {
      const page = arr(await api.get(`/v1/events?after=${String(latest)}&per_page=100`, { token: admin }));
      if (page.length === 0) return latest;
      latest = page[page.length - 1]?.seq as number;
    }
  };

  const send = (op: DocOperation, token: string): Promise<Answer> => {
    const path = op.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => String(ids[name] ?? 1));
    const body =
      op.path.startsWith('/v1/webhooks') && op.method === 'post' && op.body !== undefined
        ? { ...(op.body as object), url: 'http://127.0.0.1:9/hook' }
        : op.body;
    return api.request(op.method.toUpperCase(), path, {
      token,
      ...(op.method === 'get' || op.method === 'delete' ? {} : { body }),
    });
  };

  /** A webhook operation that aims it at the feed: creation, replay, a change of url or events. */
  const aimsWebhook = (op: DocOperation): boolean => {
    if (op.method === 'post') return op.path === '/v1/webhooks' || op.path === '/v1/webhooks/{webhook_id}/replay';
    const body = op.body as Record<string, unknown> | undefined;
    return (
      op.method === 'patch' &&
      op.path === '/v1/webhooks/{webhook_id}' &&
      body !== undefined &&
      ('url' in body || 'events' in body)
    );
  };

  for (const role of ['customer', 'agent', 'admin'] as const) {
    it(`${role}: a personal token with one scope is refused (40303, nothing changes) exactly outside the operation's documented scopes`, async () => {
      const who = await api.userWithToken(role, `Table ${role}`);
      let checked = 0;
      let usable = 0;
      for (const scope of allScopes) {
        const made = await api.post('/v1/users/me/tokens', { name: scope, scopes: [scope] }, { token: who.token });
        // A token never holds a scope its role cannot use (contract §11): there is nothing to send with it.
        if (!roleScopes(role).some((held) => covers(held, scope))) {
          expect(made.status, `${role} ${scope}`).to.equal(422);
          continue;
        }
        usable += 1;
        const token = obj(made).token as string;
        for (const op of ops) {
          const where = `${role} ${scope} ${op.method.toUpperCase()} ${op.path}`;
          const before = op.needs.length > 0 && !op.needs.some((n) => covers(scope, n)) ? await newestSeq() : null;
          const a = await send(op, token);
          const code = (a.json as { code?: number } | undefined)?.code;
          if (op.loginOnly) {
            expect(code, where).to.equal(40301);
          } else if (before !== null) {
            expect([a.status, code], `${where}: ${a.text.slice(0, 200)}`).to.deep.equal([403, 40303]);
            expect(a.header('www-authenticate'), where).to.equal(
              `Bearer realm="support", error="insufficient_scope", scope="${op.needs.join(' ')}"`,
            );
            expect(a.header('x-accepted-oauth-scopes'), where).to.equal(op.needs.join(', '));
            expect(await newestSeq(), `${where} changed something`).to.equal(before);
          } else if (scope === 'webhooks:manage' && aimsWebhook(op)) {
            // Contract §11: creating a webhook, changing its url or events, or replaying it needs
            // events:read beside webhooks:manage (a webhook reads the whole feed).
            expect([a.status, code], `${where}: ${a.text.slice(0, 200)}`).to.deep.equal([403, 40303]);
            expect(a.header('www-authenticate'), where).to.contain('scope="events:read"');
          } else {
            expect(code, `${where}: ${a.text.slice(0, 200)}`).to.not.equal(40303);
          }
          expect(a.header('x-oauth-scopes'), where).to.equal(scope);
          checked += 1;
        }
      }
      expect(checked).to.equal(usable * ops.length);
      expect(usable).to.equal(roleScopes(role).length);
    });
  }
});
