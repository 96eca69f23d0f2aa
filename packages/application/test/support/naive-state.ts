import {
  pageBounds,
  type Attachment,
  type Group,
  type Message,
  type Ticket,
  type User,
  type ChangeEvent,
  type StoredEvent,
  type Webhook,
  type EventActor,
  leaveGroup,
  renameCustomer,
  ticketEvent,
  unassignTicket,
  ungroupTicket,
  userEvent,
} from '@support/domain';
import type {
  DeliveryRecord,
  FollowUp,
  IdempotencyClaim,
  Page,
  PersonalTokenRecord,
  StoredAnswer,
  TokenRecord,
} from '../../src/index.js';

// The naive store's state (naive-store.ts): its maps, the event log and the helpers every
// port of it writes through.

/** A page of a list; every store refuses (rejects) a page starting past the deepest one. */
export const page = <T>(all: readonly T[], offset: number, limit: number): Promise<Page<T>> =>
  offset >= pageBounds.maxOffset
    ? Promise.reject(new RangeError(`a page must start before item ${String(pageBounds.maxOffset)}`))
    : Promise.resolve(structuredClone({ items: all.slice(offset, offset + limit), total: all.length }));

/** The naive store's maps and helpers, a write's follow-ups included. */
export const naiveState = () => {
  const tickets = new Map<number, Ticket>();
  const messages = new Map<string, Message>();
  const attachments = new Map<number, Attachment>();
  const users = new Map<number, User>();
  const groups = new Map<number, Group>();
  const tokens = new Map<string, TokenRecord & { used: boolean }>();
  const personal = new Map<number, PersonalTokenRecord>();
  const counters = new Map<string, number>();
  const idempotency = new Map<
    string,
    { readonly claim: IdempotencyClaim; answer: StoredAnswer | null; written: boolean }
  >();
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
    for (const f of due) {
      if (f.op === 'renameCustomer')
        bumpTickets(
          (t) => t.customerId === f.customerId && t.customerName !== f.name,
          (t) => renameCustomer(t, f.name, f.now),
          by,
        );
      else if (f.op === 'unassignUser')
        bumpTickets(
          (t) => t.assignedUserId === f.userId,
          (t) => unassignTicket(t, f.now),
          by,
        );
      else if (f.op === 'clearGroup')
        bumpTickets(
          (t) => t.groupId === f.groupId,
          (t) => ungroupTicket(t, f.now),
          by,
        );
      else if (f.op === 'removeGroup') {
        for (const u of users.values()) {
          if (!u.groupIds.includes(f.groupId)) continue;
          const next = leaveGroup(u, f.groupId, f.now);
          users.set(u.id, next);
          record(userEvent('updated', next, next.updatedAt, by));
        }
      } else if (f.op === 'revokePersonalTokens') {
        for (const r of [...personal.values()])
          if (r.userId === f.userId && r.id !== f.exceptToken) personal.delete(r.id);
      } else for (const [h, r] of tokens) if (r.userId === f.userId && r.familyId !== f.exceptFamily) tokens.delete(h);
    }
  };
  return {
    tickets,
    messages,
    attachments,
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
    followUp,
  };
};

export type NaiveState = ReturnType<typeof naiveState>;
