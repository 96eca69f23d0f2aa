import type { DomainError, GroupId, TicketId } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../src/index.js';
import { decoded, email, embed, page, rightOf, ticketQuery, world, type World } from './support/world.js';

// The role matrix of contract §3, one row per operation: what a customer, an agent and an admin
// get. "hidden" is another customer's resource (404, never 403, so its existence does not leak).
// The HTTP suites keep only a few of these, for the wire (status codes and bodies).

type Outcome = 'ok' | 'forbidden' | 'hidden';
type Caller = 'customer' | 'agent' | 'admin';

interface Scene {
  readonly w: World;
  readonly as: Record<Caller, Actor>;
  /** A ticket of the customer who calls, and one of another customer. */
  readonly own: TicketId;
  readonly others: TicketId;
  readonly otherCustomer: Actor;
  readonly group: GroupId;
}

const outcomeOf = (r: E.Either<DomainError, unknown>): string => {
  if (E.isRight(r)) return 'ok';
  if (r.left._tag === 'Forbidden') return 'forbidden';
  if (r.left._tag === 'NotFound') return 'hidden';
  return r.left._tag;
};

const never = new AbortController().signal;
let n = 0;
const unique = (what: string): string => `${what} ${String((n += 1))}`;

const matrix: readonly [
  string,
  (s: Scene, who: Caller) => Promise<E.Either<DomainError, unknown>>,
  Record<Caller, Outcome>,
][] = [
  [
    'create a ticket of their own',
    (s, who) =>
      s.w.app.tickets.create(
        s.as[who],
        decoded(who === 'customer' ? { subject: 'x' } : { subject: 'x', customerId: s.as.customer.user.id }),
      ),
    { customer: 'ok', agent: 'ok', admin: 'ok' },
  ],
  [
    'create a ticket for another customer',
    (s, who) => s.w.app.tickets.create(s.as[who], decoded({ subject: 'x', customerId: s.otherCustomer.user.id })),
    { customer: 'forbidden', agent: 'ok', admin: 'ok' },
  ],
  [
    "read the customer's ticket",
    (s, who) => s.w.app.tickets.get(s.as[who], s.own, embed()),
    { customer: 'ok', agent: 'ok', admin: 'ok' },
  ],
  [
    "read another customer's ticket",
    (s, who) => s.w.app.tickets.get(s.as[who], s.others, embed()),
    { customer: 'hidden', agent: 'ok', admin: 'ok' },
  ],
  [
    "change another customer's ticket",
    (s, who) => s.w.app.tickets.patch(s.as[who], s.others, decoded({ subject: unique('s') })),
    { customer: 'hidden', agent: 'ok', admin: 'ok' },
  ],
  [
    'list tickets',
    (s, who) => s.w.app.tickets.list(s.as[who], ticketQuery()),
    { customer: 'ok', agent: 'ok', admin: 'ok' },
  ],
  [
    'change subject and summary of the ticket',
    (s, who) => s.w.app.tickets.patch(s.as[who], s.own, decoded({ subject: unique('s'), summary: 'y' })),
    { customer: 'ok', agent: 'ok', admin: 'ok' },
  ],
  [
    'close the ticket',
    (s, who) => s.w.app.tickets.patch(s.as[who], s.own, decoded({ state: 'closed' })),
    { customer: 'ok', agent: 'ok', admin: 'ok' },
  ],
  [
    'put the ticket on hold (pending)',
    (s, who) => s.w.app.tickets.patch(s.as[who], s.own, decoded({ state: 'pending' })),
    { customer: 'forbidden', agent: 'ok', admin: 'ok' },
  ],
  [
    'change the priority',
    (s, who) => s.w.app.tickets.patch(s.as[who], s.own, decoded({ priority: 'urgent' })),
    { customer: 'forbidden', agent: 'ok', admin: 'ok' },
  ],
  [
    'delete the ticket',
    (s, who) => s.w.app.tickets.delete(s.as[who], s.own),
    { customer: 'forbidden', agent: 'forbidden', admin: 'ok' },
  ],
  [
    'add a message to the ticket',
    (s, who) => s.w.app.messages.create(s.as[who], s.own, decoded({ body: 'hello' })),
    { customer: 'ok', agent: 'ok', admin: 'ok' },
  ],
  [
    'add an internal note to the ticket',
    (s, who) => s.w.app.messages.create(s.as[who], s.own, decoded({ body: 'psst', internal: true })),
    { customer: 'forbidden', agent: 'ok', admin: 'ok' },
  ],
  [
    "add a message to another customer's ticket",
    (s, who) => s.w.app.messages.create(s.as[who], s.others, decoded({ body: 'hi' })),
    { customer: 'hidden', agent: 'ok', admin: 'ok' },
  ],
  ['read themselves', (s, who) => s.w.app.users.get(s.as[who], 'me'), { customer: 'ok', agent: 'ok', admin: 'ok' }],
  [
    'read another user',
    (s, who) => s.w.app.users.get(s.as[who], s.otherCustomer.user.id),
    { customer: 'hidden', agent: 'ok', admin: 'ok' },
  ],
  [
    'list users',
    (s, who) => s.w.app.users.list(s.as[who], page()),
    { customer: 'forbidden', agent: 'ok', admin: 'ok' },
  ],
  [
    'create a user',
    (s, who) =>
      s.w.app.users.create(
        s.as[who],
        decoded({
          name: 'New',
          email: email(`${unique('new').replace(' ', '')}@example.com`),
          password: 'long enough',
        }),
      ),
    { customer: 'forbidden', agent: 'forbidden', admin: 'ok' },
  ],
  [
    'rename themselves',
    (s, who) => s.w.app.users.patch(s.as[who], 'me', decoded({ name: unique('Name') })),
    { customer: 'ok', agent: 'ok', admin: 'ok' },
  ],
  [
    'change their own e-mail',
    (s, who) =>
      s.w.app.users.patch(s.as[who], 'me', decoded({ email: email(`${unique('me').replace(' ', '')}@example.com`) })),
    { customer: 'forbidden', agent: 'forbidden', admin: 'ok' },
  ],
  [
    'rename another user',
    (s, who) => s.w.app.users.patch(s.as[who], s.otherCustomer.user.id, decoded({ name: unique('Other') })),
    { customer: 'hidden', agent: 'forbidden', admin: 'ok' },
  ],
  [
    'list groups',
    (s, who) => s.w.app.groups.list(s.as[who], page()),
    { customer: 'forbidden', agent: 'ok', admin: 'ok' },
  ],
  [
    'read a group',
    (s, who) => s.w.app.groups.get(s.as[who], s.group),
    { customer: 'forbidden', agent: 'ok', admin: 'ok' },
  ],
  [
    'create a group',
    (s, who) => s.w.app.groups.create(s.as[who], decoded({ name: unique('Group') })),
    { customer: 'forbidden', agent: 'forbidden', admin: 'ok' },
  ],
  [
    'rename a group',
    (s, who) => s.w.app.groups.patch(s.as[who], s.group, decoded({ name: unique('Renamed') })),
    { customer: 'forbidden', agent: 'forbidden', admin: 'ok' },
  ],
  [
    'read the change feed',
    (s, who) => s.w.app.events.list(s.as[who], E.right({ after: 0, perPage: 10, waitSeconds: 0 }), never),
    { customer: 'forbidden', agent: 'ok', admin: 'ok' },
  ],
  [
    'list webhooks',
    (s, who) => s.w.app.webhooks.list(s.as[who], page()),
    { customer: 'forbidden', agent: 'forbidden', admin: 'ok' },
  ],
  [
    'create a webhook',
    (s, who) => s.w.app.webhooks.create(s.as[who], decoded({ url: 'https://hooks.example.com/in', events: ['*'] })),
    { customer: 'forbidden', agent: 'forbidden', admin: 'ok' },
  ],
];

describe('use cases: the role matrix (contract §3)', () => {
  const scene = async (): Promise<Scene> => {
    const w = await world();
    const customer = await w.customer('Ada');
    const otherCustomer = await w.customer('Bob');
    const agent = await w.agent('Grace');
    const group = rightOf(await w.app.groups.create(w.admin, decoded({ name: unique('Support') })));
    return {
      w,
      as: { customer, agent, admin: w.admin },
      own: await w.ticket(customer),
      others: await w.ticket(otherCustomer),
      otherCustomer,
      group: group.id,
    };
  };

  for (const [operation, run, expected] of matrix) {
    for (const who of ['customer', 'agent', 'admin'] as const) {
      it(`${who}: ${operation} -> ${expected[who]}`, async () => {
        const s = await scene();
        expect(outcomeOf(await run(s, who))).to.equal(expected[who]);
      });
    }
  }
});
