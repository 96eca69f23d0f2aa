import {
  type DomainError,
  type FieldError,
  pageBounds,
  searchTerms,
  ticketOrder,
  type Email,
  type PageRequest,
  type Role,
  type SortField,
  type TicketCreateInput,
  type TicketId,
  type TicketQuery,
  type TicketRelation,
  type TicketState,
  type User,
  type UserCreateInput,
  type StoredEvent,
  noQueueQuery,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import {
  createApplication,
  type Actor,
  type Application,
  type DecodedQuery,
  type Ports,
  type WebhookSender,
  type TicketReadQuery,
} from '../../src/index.js';
import { manualClock, type ManualClock } from '../../test-support/clock.js';
import { naiveStore } from './naive-store.js';

import { rightOf } from '@support/domain/testing';

export { leftOf, rightOf } from '@support/domain/testing';

/** Deterministic, cheap stand-ins for argon2 and random tokens; use-case tests check behaviour, not cryptography. */
export const fakePasswords = {
  hash: (pw: string) => Promise.resolve(`hashed:${pw}`),
  verify: (h: string, pw: string) => Promise.resolve(h === `hashed:${pw}`),
};
export const fakeSecrets = (): Ports['secrets'] => {
  let n = 0;
  return {
    generate: () => `token-${++n}`,
    digest: (t) => `sha256(${t})`,
    base62: (length) => String(++n).padStart(length, 'x'),
  };
};

/** A body or query as the edge hands it over once decoded. */
export const decoded = <T>(value: T): E.Either<never, T> => E.right(value);

export const email = (address: string): Email => address as Email;

/** The [field, code] pairs of a validation failure (none for any other error). */
export const fieldsOf = (e: DomainError): Array<[string, string]> =>
  e._tag === 'ValidationFailed' ? e.errors.map((x: FieldError) => [x.field, x.code]) : [];

/** A page of a plain list. */
export const page = (n = 1, perPage: number = pageBounds.defaultPerPage): DecodedQuery<PageRequest> =>
  E.right({ page: n, perPage });

/** The relations a single ticket read embeds. */
export const embed = (...relations: TicketRelation[]): DecodedQuery<TicketReadQuery> =>
  E.right({ embed: relations, customKeys: [] });

interface TicketQuerySpec {
  readonly states?: readonly TicketState[];
  readonly recentlyClosed?: boolean;
  /** Search text, split into words as the domain does. */
  readonly q?: string;
  /** Sort items such as '-priority', completed as the domain does. */
  readonly sort?: readonly string[];
  readonly page?: number;
  readonly perPage?: number;
  readonly embed?: readonly TicketRelation[];
}

/** A ticket list query: the domain's defaults, with these parts. */
export const ticketQuery = (spec: TicketQuerySpec = {}): DecodedQuery<TicketQuery> => {
  const recentlyClosed = spec.recentlyClosed ?? false;
  const rules = (spec.sort ?? []).map((item) => ({
    field: item.replace(/^-/, '') as SortField,
    direction: item.startsWith('-') ? ('desc' as const) : ('asc' as const),
  }));
  return E.right({
    states: spec.states ?? null,
    recentlyClosed,
    terms: searchTerms(spec.q ?? ''),
    sort: ticketOrder(rules, recentlyClosed),
    embed: spec.embed ?? [],
    queue: noQueueQuery,
    custom: [],
    customKeys: [],
    page: spec.page ?? 1,
    perPage: spec.perPage ?? pageBounds.defaultPerPage,
  });
};

export interface World {
  readonly app: Application;
  readonly ports: Ports & { readonly store: ReturnType<typeof naiveStore> };
  readonly clock: ManualClock;
  readonly sender: FakeSender;
  readonly admin: Actor;
  /** Creates a user with this role (and name) and returns them as a caller. */
  user(role: Role, name?: string, extra?: Record<string, unknown>): Promise<Actor>;
  customer(name?: string): Promise<Actor>;
  agent(name?: string): Promise<Actor>;
  /** A ticket created by this customer (or by the admin for them), with any other fields. */
  ticket(customer: Actor, fields?: Record<string, unknown>): Promise<TicketId>;
  /** The caller as it stands in the store now (role and name changes included). */
  refreshed(actor: Actor): Promise<Actor>;
}

/** A webhook receiver stand-in: records every attempt and answers what the test says. */
export interface FakeSender extends WebhookSender {
  readonly sent: {
    readonly url: string;
    readonly deliveryId: string;
    readonly event: StoredEvent;
    readonly timestamp: number;
  }[];
  /** The receiver's status for an attempt (null: no answer); 204 by default. */
  answer: (url: string, event: StoredEvent) => number | null;
}

export const fakeSender = (): FakeSender => {
  const sender: FakeSender = {
    sent: [],
    answer: () => 204,
    refuses: (url) => Promise.resolve(url.startsWith('https://') ? null : 'the URL must be https'),
    send: (target, deliveryId, event, timestamp) => {
      sender.sent.push({ url: target.url, deliveryId, event, timestamp });
      const status = sender.answer(target.url, event);
      return Promise.resolve({
        status,
        durationMs: 3,
        error: status === null ? 'no answer within 10 s' : null,
        response: '',
      });
    },
  };
  return sender;
};

export const world = async (config: { rateLimit?: number; tokenTtl?: number } = {}): Promise<World> => {
  const store = naiveStore();
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const sender = fakeSender();
  const ports = {
    ...store,
    store,
    clock,
    passwords: fakePasswords,
    secrets: fakeSecrets(),
    webhookSender: sender,
    scanner: null,
  };
  const app = createApplication(ports, {
    auth: {
      accessTokenTtlSeconds: config.tokenTtl ?? 3600,
      refreshTokenTtlSeconds: 30 * 86400,
      refreshMaxAgeSeconds: 90 * 86400,
    },
    rateLimit: { limit: config.rateLimit ?? 100, windowSeconds: 60 },
    idempotency: { retentionSeconds: 86_400, leaseSeconds: 60 },
    events: { retentionDays: 30 },
    webhooks: { retrySeconds: [5, 30, 120, 600, 3600, 21600], leaseSeconds: 30, batch: 16, keepLog: 100 },
    attachments: { maxBytes: 1024 * 1024, ttlSeconds: 3600 },
  });
  await app.setup.ensureFirstAdmin('admin@example.com' as Email, 'admin-password');
  const adminUser = (await store.users.findByEmail('admin@example.com')) as User;
  const admin: Actor = { user: adminUser };
  let n = 0;
  const user = async (role: Role, name?: string, extra: Record<string, unknown> = {}): Promise<Actor> => {
    n += 1;
    const input = {
      name: name ?? `${role} ${n}`,
      email: email(`${role}${n}@example.com`),
      password: `password-${n}`,
      role,
      ...extra,
    } as UserCreateInput;
    const created = rightOf(await app.users.create(admin, decoded(input)));
    return { user: created };
  };
  return {
    app,
    sender,
    ports,
    clock,
    admin,
    user,
    customer: (name) => user('customer', name),
    agent: (name) => user('agent', name),
    ticket: async (customer, fields = {}) => {
      const { subject = 'Printer on fire', ...rest } = fields;
      const creator = Object.keys(rest).some((k) => k !== 'summary') ? admin : customer;
      const input = (
        creator === admin ? { subject, customerId: customer.user.id, ...rest } : { subject, ...rest }
      ) as TicketCreateInput;
      return rightOf(await app.tickets.create(creator, decoded(input))).ticket.id;
    },
    refreshed: async (actor) => ({ user: (await store.users.findById(actor.user.id)) as User }),
  };
};
