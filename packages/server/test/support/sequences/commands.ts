import { sortFields, type Priority, type TicketState } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import type { Answer } from '../harness.js';
import { afterStep, type Real } from './check.js';
import {
  canMove,
  emailTaken,
  expectedTickets,
  firstAdminId,
  groupNameTaken,
  groupPath,
  listQueryString,
  messagePath,
  newTicket,
  pick,
  removeGroup,
  renameCustomer,
  ticketPath,
  touch,
  unassign,
  userPath,
  type Change,
  type ListQuery,
  type MTicket,
  type MUser,
  type Model,
  type Role,
} from './model.js';

// The steps of a sequence (fast-check model-based commands): create, update, delete and read
// tickets, messages, users and groups over HTTPS, each predicting from the model what the
// service must answer and which changes it makes, then checking all of check.ts. Commands
// are generated before the model exists, so they name what they act on by a number that
// picks among the resources of the moment. The clock moves only by its own step, so two
// writes may share an instant, as on a busy server.

type Cmd = fc.AsyncCommand<Model, Real>;

const words = ['printer', 'fire', 'paper', 'jam', 'Café', 'naïve', 'ÉCOLE', 'vpn', 'down', 'x'];
const phrase = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const names = ['Ada', 'Bob', 'Cléo', 'Dee', 'Eve'];
const emails = [
  'ada@example.com',
  'bob@example.com',
  'ADA@EXAMPLE.COM',
  'cleo@example.org',
  'dee@example.com',
  'eve@example.net',
];
const groupNames = ['Tier 1', 'tier 1', 'Billing', 'Ops'];

const send = (r: Real, method: string, path: string, token: string, body?: unknown): Promise<Answer> =>
  r.api.request(method, path, {
    token,
    ...(body === undefined
      ? {}
      : {
          body: JSON.stringify(body),
          headers: { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
        }),
  });

const expectStatus = (a: Answer, status: number, what: string): void => {
  expect(a.status, `${what}: ${a.text.slice(0, 400)}`).to.equal(status);
};

const users = (m: Model): MUser[] => [...m.users.values()];
/** Customers who can act for themselves (a token, still customers). */
const customers = (m: Model): MUser[] => users(m).filter((u) => u.role === 'customer' && u.token !== null);
const isStaff = (u: MUser | undefined): boolean => u !== undefined && u.role !== 'customer';

const command = (
  name: string,
  check: (m: Readonly<Model>) => boolean,
  run: (m: Model, r: Real) => Promise<void>,
): Cmd => ({
  check,
  run,
  toString: () => name,
});

const advance = fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 10 * 86_400_000 })).map((ms) =>
  command(
    `advance(${ms})`,
    () => true,
    (m, r) => {
      m.now += ms;
      r.api.clock.advance(ms);
      return Promise.resolve();
    },
  ),
);

const createUser = fc
  .record({
    role: fc.constantFrom<Role>('customer', 'customer', 'agent', 'admin'),
    name: fc.constantFrom(...names),
    email: fc.constantFrom(...emails),
    groups: fc.array(fc.nat(), { maxLength: 2 }),
  })
  .map((c) =>
    command(
      `createUser(${JSON.stringify(c)})`,
      () => true,
      async (m, r) => {
        const groupIds = [
          ...new Set(c.groups.map((n) => pick([...m.groups.keys()], n)).filter((g): g is number => g !== undefined)),
        ];
        const a = await send(r, 'POST', '/v1/users', r.admin, {
          name: c.name,
          email: c.email,
          role: c.role,
          password: 'password-1',
          group_ids: groupIds,
        });
        if (emailTaken(m, c.email)) {
          expectStatus(a, 422, 'a user with a taken e-mail');
          return afterStep(m, r, []);
        }
        expectStatus(a, 201, 'POST /v1/users');
        const id = (a.json as { id: number }).id;
        expect(m.users.has(id), 'a new user id').to.equal(false);
        const token = c.role === 'customer' ? await r.api.login(c.email, 'password-1') : null;
        m.users.set(id, { id, name: c.name, email: c.email, role: c.role, groups: groupIds, token });
        return afterStep(m, r, [{ type: 'user.created', path: userPath(id) }]);
      },
    ),
  );

const patchUser = fc
  .record({
    who: fc.nat(),
    name: fc.option(fc.constantFrom(...names)),
    role: fc.option(fc.constantFrom<Role>('customer', 'agent', 'admin')),
    groups: fc.option(fc.array(fc.nat(), { maxLength: 2 })),
  })
  .map((c) =>
    command(
      `patchUser(${JSON.stringify(c)})`,
      () => true,
      async (m, r) => {
        const u = pick(users(m), c.who)!;
        const groupIds =
          c.groups === null
            ? null
            : [
                ...new Set(
                  c.groups.map((n) => pick([...m.groups.keys()], n)).filter((g): g is number => g !== undefined),
                ),
              ];
        const body = {
          ...(c.name === null ? {} : { name: c.name }),
          ...(c.role === null ? {} : { role: c.role }),
          ...(groupIds === null ? {} : { group_ids: groupIds }),
        };
        const a = await send(r, 'PATCH', userPath(u.id), r.admin, body);
        if (u.id === firstAdminId && c.role !== null && c.role !== u.role) {
          expectStatus(a, 422, 'an admin changing its own role');
          return afterStep(m, r, []);
        }
        expectStatus(a, 200, `PATCH ${userPath(u.id)}`);
        const before = { ...u, groups: [...u.groups] };
        if (c.name !== null) u.name = c.name;
        if (c.role !== null) u.role = c.role;
        if (groupIds !== null) u.groups = groupIds;
        // Group ids are a list, as tags are: another order is a change.
        const same =
          before.name === u.name &&
          before.role === u.role &&
          JSON.stringify(before.groups) === JSON.stringify(u.groups);
        if (same) return afterStep(m, r, []);
        const changes: Change[] = [{ type: 'user.updated', path: userPath(u.id) }, ...renameCustomer(m, u.id, u.name)];
        if (u.role === 'customer' && before.role !== 'customer') changes.push(...unassign(m, u.id));
        return afterStep(m, r, changes);
      },
    ),
  );

const deleteUser = fc.nat().map((n) =>
  command(
    `deleteUser(${n})`,
    () => true,
    async (m, r) => {
      const u = pick(users(m), n)!;
      const a = await send(r, 'DELETE', userPath(u.id), r.admin);
      if (u.id === firstAdminId) {
        expectStatus(a, 409, 'an admin deleting itself');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, `DELETE ${userPath(u.id)}`);
      m.users.delete(u.id);
      return afterStep(m, r, [{ type: 'user.deleted', path: userPath(u.id) }, ...unassign(m, u.id)]);
    },
  ),
);

const createGroup = fc.record({ name: fc.constantFrom(...groupNames), description: fc.option(phrase) }).map((c) =>
  command(
    `createGroup(${JSON.stringify(c)})`,
    () => true,
    async (m, r) => {
      const a = await send(r, 'POST', '/v1/groups', r.admin, {
        name: c.name,
        ...(c.description === null ? {} : { description: c.description }),
      });
      if (groupNameTaken(m, c.name)) {
        expectStatus(a, 422, 'a group with a taken name');
        return afterStep(m, r, []);
      }
      expectStatus(a, 201, 'POST /v1/groups');
      const id = (a.json as { id: number }).id;
      m.groups.set(id, { id, name: c.name, description: c.description ?? '' });
      return afterStep(m, r, [{ type: 'group.created', path: groupPath(id) }]);
    },
  ),
);

const patchGroup = fc
  .record({ which: fc.nat(), name: fc.option(fc.constantFrom(...groupNames)), description: fc.option(phrase) })
  .map((c) =>
    command(
      `patchGroup(${JSON.stringify(c)})`,
      (m) => m.groups.size > 0,
      async (m, r) => {
        const g = pick([...m.groups.values()], c.which)!;
        const a = await send(r, 'PATCH', groupPath(g.id), r.admin, {
          ...(c.name === null ? {} : { name: c.name }),
          ...(c.description === null ? {} : { description: c.description }),
        });
        if (c.name !== null && groupNameTaken(m, c.name, g.id)) {
          expectStatus(a, 422, 'renaming a group to a taken name');
          return afterStep(m, r, []);
        }
        expectStatus(a, 200, `PATCH ${groupPath(g.id)}`);
        const same = (c.name ?? g.name) === g.name && (c.description ?? g.description) === g.description;
        g.name = c.name ?? g.name;
        g.description = c.description ?? g.description;
        return afterStep(m, r, same ? [] : [{ type: 'group.updated', path: groupPath(g.id) }]);
      },
    ),
  );

const deleteGroup = fc.nat().map((n) =>
  command(
    `deleteGroup(${n})`,
    (m) => m.groups.size > 0,
    async (m, r) => {
      const g = pick([...m.groups.values()], n)!;
      expectStatus(await send(r, 'DELETE', groupPath(g.id), r.admin), 200, `DELETE ${groupPath(g.id)}`);
      m.groups.delete(g.id);
      return afterStep(m, r, [{ type: 'group.deleted', path: groupPath(g.id) }, ...removeGroup(m, g.id)]);
    },
  ),
);

const createTicket = fc
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

const patchTicket = fc
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

const deleteTicket = fc.nat().map((n) =>
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

const addMessage = fc
  .record({ which: fc.nat(), asCustomer: fc.boolean(), internal: fc.boolean(), body: phrase })
  .map((c) =>
    command(
      `addMessage(${JSON.stringify(c)})`,
      (m) => m.tickets.size > 0,
      async (m, r) => {
        const t = pick([...m.tickets.values()], c.which)!;
        const owner = m.users.get(t.customerId);
        const asCustomer = c.asCustomer && owner !== undefined && owner.role === 'customer' && owner.token !== null;
        const internal = c.internal && !asCustomer;
        const a = await send(r, 'POST', `${ticketPath(t.id)}/messages`, asCustomer ? owner.token! : r.admin, {
          body: c.body,
          internal,
        });
        if (t.deletedAt !== null) {
          expectStatus(a, 410, 'a message on a deleted ticket');
          return afterStep(m, r, []);
        }
        expectStatus(a, 201, 'POST messages');
        const number = m.messages.filter((x) => x.ticketId === t.id).length + 1;
        expect((a.json as { id: number }).id, 'messages are numbered 1, 2, 3 in their ticket').to.equal(number);
        m.messages.push({ ticketId: t.id, number, body: c.body, internal, deleted: false });
        touch(t, m.now);
        return afterStep(m, r, [
          { type: 'message.created', path: messagePath(t.id, number) },
          { type: 'ticket.updated', path: ticketPath(t.id) },
        ]);
      },
    ),
  );

const patchMessage = fc.record({ which: fc.nat(), body: phrase }).map((c) =>
  command(
    `patchMessage(${JSON.stringify(c)})`,
    (m) => m.messages.length > 0,
    async (m, r) => {
      const msg = pick(m.messages, c.which)!;
      const a = await send(r, 'PATCH', messagePath(msg.ticketId, msg.number), r.admin, { body: c.body });
      if (msg.deleted || m.tickets.get(msg.ticketId)?.deletedAt !== null) {
        expectStatus(a, 410, 'PATCH of a deleted message');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, 'PATCH message');
      const same = msg.body === c.body;
      msg.body = c.body;
      return afterStep(m, r, same ? [] : [{ type: 'message.updated', path: messagePath(msg.ticketId, msg.number) }]);
    },
  ),
);

const deleteMessage = fc.nat().map((n) =>
  command(
    `deleteMessage(${n})`,
    (m) => m.messages.length > 0,
    async (m, r) => {
      const msg = pick(m.messages, n)!;
      const a = await send(r, 'DELETE', messagePath(msg.ticketId, msg.number), r.admin);
      if (msg.deleted || m.tickets.get(msg.ticketId)?.deletedAt !== null) {
        expectStatus(a, 410, 'DELETE of a deleted message');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, 'DELETE message');
      msg.deleted = true;
      return afterStep(m, r, [{ type: 'message.deleted', path: messagePath(msg.ticketId, msg.number) }]);
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

const listTickets = fc.record({ asCustomer: fc.option(fc.nat()), query: listQuery }).map((c) =>
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

const listMessages = fc.record({ which: fc.nat(), asCustomer: fc.boolean() }).map((c) =>
  command(
    `listMessages(${JSON.stringify(c)})`,
    (m) => m.tickets.size > 0,
    async (m, r) => {
      const t = pick([...m.tickets.values()], c.which)!;
      const owner = m.users.get(t.customerId);
      const asCustomer = c.asCustomer && owner !== undefined && owner.role === 'customer' && owner.token !== null;
      const a = await r.api.get(`${ticketPath(t.id)}/messages?per_page=100`, {
        token: asCustomer ? owner.token! : r.admin,
      });
      if (t.deletedAt !== null) {
        expectStatus(a, 410, 'the messages of a deleted ticket');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, 'GET messages');
      // Oldest first; a customer never sees an internal note.
      const want = m.messages
        .filter((x) => x.ticketId === t.id && !x.deleted && !(asCustomer && x.internal))
        .map((x) => x.number);
      expect(
        (a.json as { id: number }[]).map((x) => x.id),
        'the messages listed',
      ).to.deep.equal(want);
      expect(a.header('x-total-count')).to.equal(String(want.length));
      return afterStep(m, r, []);
    },
  ),
);

const groupUsers = fc.nat().map((n) =>
  command(
    `groupUsers(${n})`,
    (m) => m.groups.size > 0,
    async (m, r) => {
      const g = pick([...m.groups.values()], n)!;
      const a = await r.api.get(`${groupPath(g.id)}/users?per_page=100`, { token: r.admin });
      expectStatus(a, 200, 'GET group users');
      const want = users(m)
        .filter((u) => u.groups.includes(g.id))
        .map((u) => u.id)
        .sort((x, y) => x - y);
      expect(
        (a.json as { id: number }[]).map((u) => u.id),
        `the members of group ${g.id}`,
      ).to.deep.equal(want);
      expect(a.header('x-total-count')).to.equal(String(want.length));
      return afterStep(m, r, []);
    },
  ),
);

/** Every command, weighted towards the writes that change most. */
export const allCommands: fc.Arbitrary<Cmd>[] = [
  advance,
  createUser,
  createUser,
  patchUser,
  deleteUser,
  createGroup,
  patchGroup,
  deleteGroup,
  createTicket,
  createTicket,
  createTicket,
  patchTicket,
  patchTicket,
  deleteTicket,
  addMessage,
  addMessage,
  patchMessage,
  deleteMessage,
  listTickets,
  listTickets,
  listMessages,
  groupUsers,
];
