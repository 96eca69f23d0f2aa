import {
  pageBounds,
  type Group,
  type Message,
  type Ticket,
  type User,
  type ChangeEvent,
  type StoredEvent,
  type Webhook,
  type EventActor,
  ticketEvent,
} from '@support/domain';
import type {
  DeliveryRecord,
  FollowUp,
  IdempotencyClaim,
  Page,
  PersonalTokenRecord,
  StoredAnswer,
  Store,
  TokenRecord,
} from '../../src/index.js';

// The naive store's state (naive-store.ts): its maps, the event log and the helpers every
// port of it writes through.

/** A page of a list; every store refuses (rejects) a page starting past the deepest one. */
export const page = <T>(all: readonly T[], offset: number, limit: number): Promise<Page<T>> =>
  offset >= pageBounds.maxOffset
    ? Promise.reject(new RangeError(`a page must start before item ${String(pageBounds.maxOffset)}`))
    : Promise.resolve(structuredClone({ items: all.slice(offset, offset + limit), total: all.length }));

/** The naive store's maps and helpers; `storeOf` answers the store they make up (follow-ups call its ports). */
export const naiveState = (storeOf: () => Store) => {
  const tickets = new Map<number, Ticket>();
  const messages = new Map<string, Message>();
  const users = new Map<number, User>();
  const groups = new Map<number, Group>();
  const tokens = new Map<string, TokenRecord & { used: boolean }>();
  const personal = new Map<number, PersonalTokenRecord>();
  const counters = new Map<string, number>();
  const idempotency = new Map<string, { readonly claim: IdempotencyClaim; answer: StoredAnswer | null }>();
  const hooks = new Map<number, Webhook>();
  const hookLeases = new Map<number, { readonly owner: string; readonly until: number }>();
  const deliveries = new Map<number, DeliveryRecord[]>();
  const sequences = new Map<string, number>();
  const mkey = (t: number, n: number): string => `${t}/${n}`;
  const log: StoredEvent[] = [];
  /** Events up to this seq are forgotten (from the oldest on). */
  const wakers = new Set<() => void>();
  const record = (...changes: ChangeEvent[]): void => {
    for (const c of changes) log.push({ seq: log.length + 1, ...c });
    for (const wake of [...wakers]) wake();
  };
  const bumpTickets = (
    pred: (t: Ticket) => boolean,
    change: (t: Ticket) => Ticket,
    by: EventActor | undefined,
  ): void => {
    for (const t of [...tickets.values()]) {
      if (!pred(t)) continue;
      const next = change(t);
      tickets.set(t.id, next);
      if (next.deletedAt === null) record(ticketEvent('updated', next, next.updatedAt, by));
    }
  };
  /** A write's follow-ups in the write's own step (every call of this store is synchronous). */
  const followUp = (due: readonly FollowUp[] = [], by?: EventActor): void => {
    const store = storeOf();
    for (const f of due) {
      if (f.op === 'renameCustomer') void store.tickets.renameCustomer(f.customerId, f.name, f.now, by);
      else if (f.op === 'unassignUser') void store.tickets.unassignUser(f.userId, f.now, by);
      else if (f.op === 'clearGroup') void store.tickets.clearGroup(f.groupId, f.now, by);
      else if (f.op === 'removeGroup') void store.users.removeGroup(f.groupId, f.now, by);
      else if (f.op === 'revokePersonalTokens') void store.personalTokens.revokeUser(f.userId);
      else void store.tokens.revokeUser(f.userId);
    }
  };
  return {
    tickets,
    messages,
    users,
    groups,
    tokens,
    personal,
    counters,
    idempotency,
    hooks,
    hookLeases,
    deliveries,
    sequences,
    mkey,
    log,
    wakers,
    record,
    bumpTickets,
    followUp,
  };
};

export type NaiveState = ReturnType<typeof naiveState>;
