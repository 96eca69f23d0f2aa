import { sortFields, type Priority, type TicketState } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import { afterStep } from './check.js';
import {
  canMove,
  expectedTickets,
  listQueryString,
  newTicket,
  pick,
  ticketPath,
  touch,
  type ListQuery,
  type MTicket,
  type MUser,
} from './model.js';
import { command, customers, expectStatus, isStaff, names, phrase, send, users, words } from './command-kit.js';

// The steps on tickets: create, PATCH, DELETE and list (see commands.ts).

export const createTicket = fc
  .record({
    byCustomer: fc.option(fc.nat()),
    customer: fc.nat(),
    subject: phrase,
    summary: fc.option(phrase),
    priority: fc.option(fc.constantFrom<Priority>('low', 'normal', 'high', 'urgent')),
    assignee: fc.option(fc.nat()),
    group: fc.option(fc.nat()),
    tags: fc.option(fc.uniqueArray(fc.constantFrom('vip', 'bug', 'needs-parts'), { maxLength: 2 })),
  })
  .map((c) =>
    command(
      `createTicket(${JSON.stringify(c)})`,
      () => true,
      async (m, r) => {
        const self = c.byCustomer === null ? undefined : pick(customers(m), c.byCustomer);
        let body: Record<string, unknown>;
        let customer: MUser;
        let assignee: MUser | undefined;
        let groupId: number | undefined;
        if (self !== undefined) {
          customer = self;
          body = { subject: c.subject, ...(c.summary === null ? {} : { summary: c.summary }) };
        } else {
          customer = pick(users(m), c.customer)!;
          assignee = c.assignee === null ? undefined : pick(users(m), c.assignee);
          groupId = c.group === null ? undefined : pick([...m.groups.keys()], c.group);
          body = {
            subject: c.subject,
            customer_id: customer.id,
            ...(c.summary === null ? {} : { summary: c.summary }),
            ...(c.priority === null ? {} : { priority: c.priority }),
            ...(assignee === undefined ? {} : { assigned_user_id: assignee.id }),
            ...(groupId === undefined ? {} : { group_id: groupId }),
            ...(c.tags === null ? {} : { tags: c.tags }),
          };
        }
        const a = await send(r, 'POST', '/v1/tickets', self?.token ?? r.admin, body);
        if (assignee !== undefined && !isStaff(assignee)) {
          expectStatus(a, 422, 'a ticket assigned to a customer');
          return afterStep(m, r, []);
        }
        expectStatus(a, 201, 'POST /v1/tickets');
        const id = (a.json as { id: number }).id;
        const t = newTicket(
          id,
          { subject: c.subject, customerId: customer.id as MTicket['customerId'], customerName: customer.name },
          m.now,
        );
        if (c.summary !== null) t.summary = c.summary;
        if (self === undefined) {
          if (c.priority !== null) t.priority = c.priority;
          if (assignee !== undefined) t.assignedUserId = assignee.id as MTicket['customerId'];
          if (groupId !== undefined) t.groupId = groupId as NonNullable<MTicket['groupId']>;
          if (c.tags !== null) t.tags = c.tags;
        }
        m.tickets.set(id, t);
        return afterStep(m, r, [{ type: 'ticket.created', path: ticketPath(id) }]);
      },
    ),
  );

export const patchTicket = fc
  .record({
    which: fc.nat(),
    asCustomer: fc.boolean(),
    subject: fc.option(phrase),
    state: fc.option(fc.constantFrom<TicketState>('open', 'pending', 'closed')),
    priority: fc.option(fc.constantFrom<Priority>('low', 'urgent')),
    assignee: fc.oneof(fc.constant<'keep'>('keep'), fc.constant<'unassign'>('unassign'), fc.nat()),
    tags: fc.option(fc.uniqueArray(fc.constantFrom('vip', 'bug'), { maxLength: 2 })),
  })
  .map((c) =>
    command(
      `patchTicket(${JSON.stringify(c)})`,
      (m) => m.tickets.size > 0,
      async (m, r) => {
        const t = pick([...m.tickets.values()], c.which)!;
        const owner = m.users.get(t.customerId);
        const asCustomer = c.asCustomer && owner !== undefined && owner.role === 'customer' && owner.token !== null;
        // A customer writes subject, summary and state (open or closed); staff write all of it.
        const state = asCustomer && c.state === 'pending' ? null : c.state;
        const assignee =
          c.assignee === 'keep' || asCustomer
            ? undefined
            : c.assignee === 'unassign'
              ? null
              : (pick(users(m), c.assignee) ?? null);
        const body = {
          ...(c.subject === null ? {} : { subject: c.subject }),
          ...(state === null ? {} : { state }),
          ...(c.priority === null || asCustomer ? {} : { priority: c.priority }),
          ...(assignee === undefined ? {} : { assigned_user_id: assignee === null ? null : assignee.id }),
          ...(c.tags === null || asCustomer ? {} : { tags: c.tags }),
        };
        const a = await send(r, 'PATCH', ticketPath(t.id), asCustomer ? owner.token! : r.admin, body);
        if (t.deletedAt !== null) {
          expectStatus(a, 410, 'PATCH of a deleted ticket');
          return afterStep(m, r, []);
        }
        const refused =
          (state !== null && !canMove(t.state, state)) ||
          (assignee !== undefined && assignee !== null && !isStaff(assignee));
        if (refused) {
          expectStatus(a, 422, 'a refused transition or a customer as assignee');
          return afterStep(m, r, []);
        }
        expectStatus(a, 200, `PATCH ${ticketPath(t.id)}`);
        const before = JSON.stringify(t);
        if (c.subject !== null) t.subject = c.subject;
        if (state !== null && state !== t.state) {
          t.closedAt = state === 'closed' ? m.now : null;
          t.state = state;
        }
        if (c.priority !== null && !asCustomer) t.priority = c.priority;
        if (assignee !== undefined)
          t.assignedUserId = assignee === null ? null : (assignee.id as MTicket['customerId']);
        // Tags are a list: the same tags in another order are a change (the representation shows the order).
        if (c.tags !== null && !asCustomer) t.tags = c.tags;
        if (JSON.stringify(t) === before) return afterStep(m, r, []);
        touch(t, m.now);
        return afterStep(m, r, [{ type: 'ticket.updated', path: ticketPath(t.id) }]);
      },
    ),
  );

export const deleteTicket = fc.nat().map((n) =>
  command(
    `deleteTicket(${n})`,
    (m) => m.tickets.size > 0,
    async (m, r) => {
      const t = pick([...m.tickets.values()], n)!;
      const a = await send(r, 'DELETE', ticketPath(t.id), r.admin);
      if (t.deletedAt !== null) {
        expectStatus(a, 410, 'DELETE of a deleted ticket');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, `DELETE ${ticketPath(t.id)}`);
      t.deletedAt = m.now;
      touch(t, m.now);
      return afterStep(m, r, [{ type: 'ticket.deleted', path: ticketPath(t.id) }]);
    },
  ),
);

const sortRule = fc.record({
  field: fc.constantFrom(...sortFields),
  direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
});
const listQuery: fc.Arbitrary<ListQuery> = fc.record({
  recentlyClosed: fc.boolean(),
  states: fc.option(
    fc.uniqueArray(fc.constantFrom<TicketState>('open', 'pending', 'closed'), { minLength: 1, maxLength: 3 }),
  ),
  sort: fc.uniqueArray(sortRule, { maxLength: 2, selector: (s) => s.field }),
  q: fc.oneof(fc.constant(''), fc.constantFrom(...words, ...names, 'cafe', 'NAIVE ecole')),
  page: fc.integer({ min: 1, max: 3 }),
  perPage: fc.integer({ min: 1, max: 4 }),
});

export const listTickets = fc.record({ asCustomer: fc.option(fc.nat()), query: listQuery }).map((c) =>
  command(
    `listTickets(${JSON.stringify(c)})`,
    () => true,
    async (m, r) => {
      const customer = c.asCustomer === null ? undefined : pick(customers(m), c.asCustomer);
      const path = `/v1/tickets${c.query.recentlyClosed ? '/recently_closed' : ''}?${listQueryString(c.query)}`;
      const a = await r.api.get(path, { token: customer?.token ?? r.admin });
      expectStatus(a, 200, `GET ${path}`);
      const want = expectedTickets(m, c.query, customer?.id ?? null);
      expect(
        (a.json as { id: number }[]).map((t) => t.id),
        `GET ${path} as ${customer === undefined ? 'admin' : `customer ${customer.id}`}`,
      ).to.deep.equal(want.ids);
      expect(a.header('x-total-count'), `GET ${path}: X-Total-Count`).to.equal(String(want.total));
      return afterStep(m, r, []);
    },
  ),
);
