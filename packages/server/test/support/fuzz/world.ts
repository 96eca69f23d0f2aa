import { urlsFor, webhookBody } from '@support/adapter-http-koa';
import { httpWebhookSender } from '@support/adapter-webhook-sender';
import type { Store, WebhookSender } from '@support/application';
import {
  scopes as scopeNames,
  type GroupId,
  type MessageNumber,
  type TicketId,
  type UserId,
  type WebhookId,
} from '@support/domain';
import { isIP } from 'node:net';
import type { Answer, Api } from '../harness.js';
import type { Role } from './requests.js';
import type { Ref } from './wire.js';

// The fixtures a fuzz run acts on, made over HTTP: an admin, two customers and an agent (each
// with a token), two groups, tickets of each customer (one with messages, one closed, one
// deleted), two webhooks (inactive: no delivery changes them behind the fuzz's back) and a
// spare login whose tokens the fuzz may refresh or revoke. Requests change and delete them,
// so they are made again every so many requests. Each world also has a keeper: an admin no
// reference of a request stands for, whose token makes the next world. The world's own admin
// cannot do that: the fuzz may promote the customer (as the admin) and then, as that customer,
// demote the admin or change its password (which ends its tokens); it did, FUZZ_SEED=206762859.

export interface Person {
  readonly id: number;
  readonly email: string;
  readonly password: string;
  readonly token: string;
}

export interface World {
  /** Makes the next world; no reference (`resolveIn`) and no role (`tokenOf`) stands for it. */
  readonly keeper: Person;
  readonly admin: Person;
  readonly agent: Person;
  readonly customer: Person;
  readonly other: Person;
  readonly groups: readonly number[];
  readonly tickets: readonly number[];
  readonly messages: readonly number[];
  readonly webhooks: readonly number[];
  readonly seqs: readonly number[];
  readonly refresh: readonly string[];
  /** The admin's personal access tokens, each with a random non-empty set of scopes (contract §8). */
  readonly personal: readonly { readonly token: string; readonly scopes: readonly string[] }[];
}

let made = 0;

const expectStatus = (a: Answer, status: number, what: string): Answer => {
  if (a.status !== status) throw new Error(`fuzz fixtures: ${what} answered ${a.status}: ${a.text.slice(0, 300)}`);
  return a;
};

const idOf = (a: Answer): number => (a.json as { id: number }).id;

/** Makes a new world, as `creator` (an admin's token). */
export const makeWorld = async (api: Api, creator: string, store: Store): Promise<World> => {
  made += 1;
  const tag = `w${made}x${Date.now().toString(36)}`;
  const post = async (path: string, body: unknown, token = creator): Promise<number> =>
    idOf(expectStatus(await api.request('POST', path, { token, body }), 201, `POST ${path}`));
  const person = async (role: 'admin' | 'agent' | 'customer', name: string): Promise<Person> => {
    const email = `${name}.${tag}@example.com`;
    const password = `password-${name}-${tag}`;
    const id = await post('/v1/users', { name: `${name} ${tag}`, email, password, role });
    return { id, email, password, token: await api.login(email, password) };
  };
  const groups = [
    await post('/v1/groups', { name: `Group A ${tag}` }),
    await post('/v1/groups', { name: `Group B ${tag}`, description: 'second' }),
  ];
  const keeper = await person('admin', 'keeper');
  const admin = await person('admin', 'admin');
  const agent = await person('agent', 'agent');
  const customer = await person('customer', 'customer');
  const other = await person('customer', 'other');
  await api.request('PATCH', `/v1/users/${agent.id}`, {
    token: creator,
    body: JSON.stringify({ group_ids: groups }),
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  // An earlier request of the fuzz may have defined a required ticket field, which every ticket
  // below would then need (422): each world starts without custom fields.
  const fields = expectStatus(
    await api.request('GET', '/v1/ticket_fields?per_page=100', { token: creator }),
    200,
    'GET /v1/ticket_fields',
  );
  for (const { id } of fields.json as { id: number }[])
    expectStatus(
      await api.request('DELETE', `/v1/ticket_fields/${String(id)}`, { token: creator }),
      200,
      `DELETE /v1/ticket_fields/${String(id)}`,
    );
  const withMessages = await post('/v1/tickets', {
    subject: `Printer ${tag}`,
    summary: 'On fire.',
    customer_id: customer.id,
    assigned_user_id: agent.id,
    group_id: groups[0],
    tags: ['fire'],
  });
  const others = await post('/v1/tickets', { subject: `Other ${tag}`, customer_id: other.id, priority: 'urgent' });
  const closed = await post('/v1/tickets', { subject: `Closed ${tag}`, customer_id: customer.id });
  const deleted = await post('/v1/tickets', { subject: `Deleted ${tag}`, customer_id: customer.id });
  const messagesPath = `/v1/tickets/${withMessages}/messages`;
  const messages = [
    await post(messagesPath, { body: 'Still smoking.' }, customer.token),
    await post(messagesPath, { body: 'Internal note.', internal: true }, agent.token),
    await post(messagesPath, { body: 'Gone soon.' }, customer.token),
  ];
  expectStatus(
    await api.request('DELETE', `${messagesPath}/${messages[2]}`, { token: creator }),
    200,
    'DELETE message',
  );
  expectStatus(
    await api.request('PATCH', `/v1/tickets/${closed}`, {
      token: creator,
      body: JSON.stringify({ state: 'closed' }),
      headers: { 'Content-Type': 'application/merge-patch+json' },
    }),
    200,
    'close',
  );
  expectStatus(await api.request('DELETE', `/v1/tickets/${deleted}`, { token: creator }), 200, 'DELETE ticket');
  const webhooks = [
    await post('/v1/webhooks', { url: 'https://hooks.example.com/in', events: ['*'], active: false }),
    await post('/v1/webhooks', {
      url: 'https://93.184.215.14/hook',
      events: ['ticket.created'],
      description: 'b',
      active: false,
    }),
  ];
  const spare = expectStatus(
    await api.request('POST', '/v1/oauth/token', {
      body: { grant_type: 'password', username: other.email, password: other.password },
    }),
    200,
    'spare login',
  );
  const tokens = spare.json as { access_token: string; refresh_token: string };
  // Four personal tokens of the admin, each with a subset of the scopes that changes from world to world.
  const personal: { token: string; scopes: string[] }[] = [];
  for (let i = 0; i < 4; i++) {
    const bits = ((Math.imul(made * 37 + i * 101, 2654435761) >>> 0) % (2 ** scopeNames.length - 1)) + 1;
    const scopes = scopeNames.filter((_, b) => (bits >> b) & 1);
    const a = expectStatus(
      await api.request('POST', '/v1/users/me/tokens', {
        token: admin.token,
        body: { name: `fuzz ${String(i)}`, scopes },
      }),
      201,
      'personal token',
    );
    personal.push({ token: (a.json as { token: string }).token, scopes });
  }
  return {
    keeper,
    admin,
    agent,
    customer,
    other,
    groups,
    tickets: [withMessages, others, closed, deleted],
    messages,
    webhooks,
    seqs: [0, (await store.events.bounds()).newest],
    refresh: [tokens.refresh_token, tokens.access_token, 'not-a-token'],
    personal,
  };
};

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

/** What a reference of a generated request stands for in this world. */
export const resolveIn =
  (w: World) =>
  (r: Ref): number | string => {
    switch (r.ref) {
      case 'customer':
        return pick([w.customer.id, w.other.id], r.pick);
      case 'staff':
        return pick([w.agent.id, w.admin.id], r.pick);
      case 'user':
        return pick([w.customer.id, w.other.id, w.agent.id, w.admin.id], r.pick);
      case 'group':
        return pick(w.groups, r.pick);
      case 'ticket':
        return pick(w.tickets, r.pick);
      case 'message':
        return pick(w.messages, r.pick);
      case 'webhook':
        return pick(w.webhooks, r.pick);
      case 'seq':
        return pick(w.seqs, r.pick);
      case 'email':
        return pick([w.customer.email, w.admin.email, w.customer.email.toUpperCase(), 'nobody@example.com'], r.pick);
      case 'password':
        return pick([w.customer.password, w.admin.password, 'wrong-password'], r.pick);
      case 'refresh':
        return pick(w.refresh, r.pick);
    }
  };

/** The token a role sends (none for `none`; one nobody was given for `stranger`). */
export const tokenOf = (w: World, role: Role): string | null => {
  switch (role) {
    case 'admin':
      return w.admin.token;
    case 'agent':
      return w.agent.token;
    case 'customer':
      return w.customer.token;
    case 'personal':
      return w.personal[0]?.token ?? null;
    case 'none':
      return null;
    case 'stranger':
      return 'dGhpcyB0b2tlbiB3YXMgbmV2ZXIgaXNzdWVkIHRvIGFueW9uZSBhdCBhbGwh';
  }
};

const canonicalId = (s: string | undefined): number | null =>
  s !== undefined && /^[1-9][0-9]{0,15}$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : null;

/**
 * The stored record a request to this path may change, as JSON: what "changed nothing" is
 * judged by, beside the feed's newest seq. A user's password hash is part of it (a refused
 * password change must not happen); a webhook's delivery cursor is not (the delivery worker
 * moves it between any two requests).
 */
export const storedTarget = async (store: Store, path: string, caller: number | null): Promise<string | null> => {
  const [, v1, kind, a, sub, b] = path.split('/');
  if (v1 !== 'v1') return null;
  // Webhooks append no event to the feed: a refused POST /v1/webhooks is judged by their count.
  if (kind === 'webhooks' && a === undefined) return `webhooks: ${(await store.webhooks.list(0, 1)).total}`;
  const first = a === 'me' && kind === 'users' ? caller : canonicalId(a);
  if (first === null) return null;
  switch (kind) {
    case 'ticket':
    case 'tickets': {
      const message = sub === 'messages' ? canonicalId(b) : null;
      if (message !== null)
        return JSON.stringify(await store.messages.find(first as TicketId, message as MessageNumber));
      return JSON.stringify(await store.tickets.findById(first as TicketId));
    }
    case 'users':
      return JSON.stringify(await store.users.findById(first as UserId));
    case 'groups':
      return JSON.stringify(await store.groups.findById(first as GroupId));
    case 'webhooks': {
      const w = await store.webhooks.findById(first as WebhookId);
      return JSON.stringify(
        w === null
          ? null
          : {
              url: w.url,
              events: w.events,
              description: w.description,
              active: w.active,
              secret: w.secret,
              createdAt: w.createdAt,
            },
      );
    }
    default:
      return null;
  }
};

/**
 * Webhook deliveries without a network: the SSRF guard's own answer for a URL whose host is
 * an address, and for a host name the answer it would give were the name a public address
 * (a DNS lookup would make the fuzz wait on, and depend on, the machine's resolver); every
 * delivery "succeeds" at once.
 */
export const offlineWebhookSender = (): WebhookSender => {
  const real = httpWebhookSender({
    body: (event, fields) => webhookBody(urlsFor('https://localhost'), event, fields),
    timeoutMs: 1_000,
    allowPrivate: false,
  });
  return {
    refuses: (url) => {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return real.refuses(url);
      }
      if (isIP(u.hostname.replace(/^\[(.*)\]$/, '$1')) === 0) u.hostname = '93.184.215.14';
      return real.refuses(u.toString());
    },
    send: () => Promise.resolve({ status: 204, durationMs: 1, error: null, response: '' }),
  };
};
