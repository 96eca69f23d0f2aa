import { expect } from 'chai';
import { adminEmail, adminPassword, startApi, type Answer, type Api } from '../support/harness.js';
import { expectError } from '../support/oauth.js';
import { arr, createTicket, linkRels, obj, patchJson, pathOf, type Json } from '../support/resources.js';

// The change feed (contract §7.3) over HTTPS: what each write appends, reading by cursor,
// the long poll, roles, bad parameters and retention.

interface FeedEvent {
  readonly seq: number;
  readonly type: string;
  readonly occurred_at: string;
  readonly resource: { readonly type: string; readonly id: number; readonly url: string };
  readonly data: Json | null;
}

/** [type, resource type, resource id]: what a client tells an event by. */
type Change = readonly [string, string, number];

const events = (a: Answer): FeedEvent[] => {
  expect(a.status, a.text).to.equal(200);
  return arr(a) as unknown as FeedEvent[];
};

/** Every event after `after`, following Link rel="next" until a page comes back empty. */
const readAll = async (api: Api, token: string, after: number): Promise<FeedEvent[]> => {
  const out: FeedEvent[] = [];
  let path = `/v1/events?after=${after}&per_page=100`;
  for (;;) {
    const a = await api.get(path, { token });
    const page = events(a);
    if (page.length === 0) return out;
    out.push(...page);
    path = pathOf(linkRels(a.header('link')).next);
  }
};

const newestSeq = async (api: Api, token: string): Promise<number> => (await readAll(api, token, 0)).at(-1)?.seq ?? 0;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('HTTP: the change feed (GET /v1/events)', () => {
  let api: Api;
  let admin: string;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };

  before(async () => {
    api = await startApi();
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Ansel Agent');
    customer = await api.userWithToken('customer', 'Cleo Customer');
  });
  after(async () => {
    await api.close();
  });

  describe('every change appends its events, once, in commit order', () => {
    let cursor = 0;
    before(async () => {
      cursor = await newestSeq(api, admin);
    });

    /**
     * Runs one write and checks the events it appended: exactly those `expected` names (in any
     * order within the write), numbered on from the cursor without a gap, stamped with the clock,
     * each carrying the resource as an admin reads it now (null once deleted).
     */
    const step = async <T>(write: () => Promise<T>, expected: (result: T) => readonly Change[]): Promise<T> => {
      api.clock.advance(1000);
      const result = await write();
      const want = expected(result);
      const appended = await readAll(api, admin, cursor);
      expect(appended.map((e) => [e.type, e.resource.type, e.resource.id])).to.have.deep.members(
        want.map((c) => [...c]),
      );
      expect(appended.map((e) => e.seq)).to.deep.equal(want.map((_, i) => cursor + 1 + i));
      for (const e of appended) {
        expect(e.occurred_at).to.equal(new Date(api.clock.now()).toISOString());
        const now = await api.get(pathOf(e.resource.url), { token: admin });
        if (e.type.endsWith('.deleted')) {
          expect(e.data).to.equal(null);
          expect(now.status).to.be.oneOf([404, 410]);
        } else {
          expect(now.status, now.text).to.equal(200);
          expect(e.data, e.type).to.deep.equal(now.json);
        }
      }
      cursor += appended.length;
      return result;
    };

    const created = async (path: string, body: Json): Promise<Json> => {
      const a = await api.post(path, body, { token: admin });
      expect(a.status, a.text).to.equal(201);
      return obj(a);
    };
    const done = async (a: Promise<Answer>): Promise<void> => {
      const answer = await a;
      expect(answer.status, answer.text).to.equal(200);
    };
    const id = (r: Json): number => r.id as number;

    it('tickets, messages, users and groups: created, updated, deleted; a renamed customer and a deleted group reach their tickets and users', async () => {
      const group = await step(
        () => created('/v1/groups', { name: 'Feed watchers' }),
        (g) => [['group.created', 'group', id(g)]],
      );
      const fay = await step(
        () =>
          created('/v1/users', {
            name: 'Fay Feed',
            email: 'fay.feed@example.com',
            password: 'fay-password',
            role: 'customer',
          }),
        (u) => [['user.created', 'user', id(u)]],
      );
      const ann = await step(
        () =>
          created('/v1/users', {
            name: 'Ann Agent',
            email: 'ann.feed@example.com',
            password: 'ann-password',
            role: 'agent',
            group_ids: [id(group)],
          }),
        (u) => [['user.created', 'user', id(u)]],
      );
      const t1 = await step(
        () =>
          created('/v1/tickets', {
            subject: 'Feed me',
            customer_id: id(fay),
            assigned_user_id: id(ann),
            group_id: id(group),
          }),
        (t) => [['ticket.created', 'ticket', id(t)]],
      );
      const t2 = await step(
        () => created('/v1/tickets', { subject: 'Feed me too', customer_id: id(fay) }),
        (t) => [['ticket.created', 'ticket', id(t)]],
      );
      const ticketPath = `/v1/tickets/${id(t1)}`;
      await step(
        () => done(patchJson(api, ticketPath, { priority: 'high', tags: ['feed'] }, admin)),
        () => [['ticket.updated', 'ticket', id(t1)]],
      );

      // A message moves its ticket's updated_at, so the ticket's representation changes too.
      const message = await step(
        () => created(`${ticketPath}/messages`, { body: 'First words' }),
        (m) => [
          ['message.created', 'message', id(m)],
          ['ticket.updated', 'ticket', id(t1)],
        ],
      );
      const messagePath = `${ticketPath}/messages/${id(message)}`;
      // Editing or deleting a message leaves its ticket's representation as it was.
      await step(
        () => done(patchJson(api, messagePath, { body: 'Second thoughts' }, admin)),
        () => [['message.updated', 'message', id(message)]],
      );
      await step(
        () => done(api.request('DELETE', messagePath, { token: admin })),
        () => [['message.deleted', 'message', id(message)]],
      );

      // Renaming a customer changes customer_name on each of their tickets.
      await step(
        () => done(patchJson(api, `/v1/users/${id(fay)}`, { name: 'Fay Renamed' }, admin)),
        () => [
          ['user.updated', 'user', id(fay)],
          ['ticket.updated', 'ticket', id(t1)],
          ['ticket.updated', 'ticket', id(t2)],
        ],
      );
      // Tickets and users show a group as a link: its description is not part of them.
      await step(
        () => done(patchJson(api, `/v1/groups/${id(group)}`, { description: 'They read everything' }, admin)),
        () => [['group.updated', 'group', id(group)]],
      );
      await step(
        () => done(api.request('DELETE', `/v1/tickets/${id(t2)}`, { token: admin })),
        () => [['ticket.deleted', 'ticket', id(t2)]],
      );
      // A deleted group leaves its members and its tickets.
      await step(
        () => done(api.request('DELETE', `/v1/groups/${id(group)}`, { token: admin })),
        () => [
          ['group.deleted', 'group', id(group)],
          ['user.updated', 'user', id(ann)],
          ['ticket.updated', 'ticket', id(t1)],
        ],
      );
      // A deleted agent is unassigned from their tickets.
      await step(
        () => done(api.request('DELETE', `/v1/users/${id(ann)}`, { token: admin })),
        () => [
          ['user.deleted', 'user', id(ann)],
          ['ticket.updated', 'ticket', id(t1)],
        ],
      );
      const final = obj(await api.get(ticketPath, { token: admin }));
      expect(final).to.include({ customer_name: 'Fay Renamed', assigned_user: null, group: null });
    });

    it('a refused write appends nothing', async () => {
      cursor = await newestSeq(api, admin);
      await step(
        async () => {
          expect((await api.post('/v1/tickets', { subject: '' }, { token: admin })).status).to.equal(422);
          expect((await patchJson(api, '/v1/users/999999', { name: 'Nobody' }, admin)).status).to.equal(404);
          expect((await api.post('/v1/groups', { name: 'x' }, { token: agent.token })).status).to.equal(403);
        },
        () => [],
      );
    });
  });

  describe('reading by cursor', () => {
    it('pages with after and per_page; Link rel="next" always, keeping per_page and wait, never the token', async () => {
      const from = await newestSeq(api, admin);
      for (let i = 1; i <= 5; i += 1)
        await createTicket(api, admin, { subject: `Paged ${i}`, customer_id: customer.id });
      const first = await api.get(`/v1/events?per_page=2&after=${from}&wait=0&access_token=${admin}`);
      expect(events(first).map((e) => e.seq)).to.deep.equal([from + 1, from + 2]);
      expect(first.header('x-total-count')).to.equal(undefined);
      const next = linkRels(first.header('link')).next;
      expect(Object.keys(linkRels(first.header('link')))).to.deep.equal(['next']);
      expect(next).to.equal(`${api.origin}/v1/events?per_page=2&wait=0&after=${from + 2}`);

      const second = await api.get(pathOf(next), { token: admin });
      expect(events(second).map((e) => e.seq)).to.deep.equal([from + 3, from + 4]);
      const third = await api.get(pathOf(linkRels(second.header('link')).next), { token: admin });
      expect(events(third).map((e) => [e.seq, e.type, (e.data as Json).subject])).to.deep.equal([
        [from + 5, 'ticket.created', 'Paged 5'],
      ]);
      // Past the newest: an empty page that points at the same cursor, to be read again later.
      const empty = await api.get(pathOf(linkRels(third.header('link')).next), { token: admin });
      expect(events(empty)).to.deep.equal([]);
      expect(linkRels(empty.header('link')).next).to.equal(
        `${api.origin}/v1/events?per_page=2&wait=0&after=${from + 5}`,
      );

      // The defaults: after=0 reads from the start, 30 at a time.
      const start = events(await api.get('/v1/events', { token: admin }));
      expect(start[0]?.seq).to.equal(1);
      expect(start).to.have.length(Math.min(30, from + 5));
    });

    it('answers If-None-Match with 304, and puts the next read in the envelope', async () => {
      const a = await api.get('/v1/events?after=0&per_page=3', { token: admin });
      const etag = a.header('etag');
      expect(etag).to.be.a('string');
      expect(
        (await api.get('/v1/events?after=0&per_page=3', { token: admin, headers: { 'If-None-Match': etag ?? '' } }))
          .status,
      ).to.equal(304);
      const wrapped = obj(await api.get('/v1/events?after=0&per_page=3&envelope=true', { token: admin }));
      expect(wrapped.next_page).to.equal(`${api.origin}/v1/events?per_page=3&envelope=true&after=3`);
    });

    it('holds a read with wait until an event arrives, and answers [] when none does', async () => {
      const from = await newestSeq(api, admin);
      const started = Date.now();
      const held = api.get(`/v1/events?after=${from}&wait=20`, { token: agent.token });
      await sleep(300);
      await createTicket(api, admin, { subject: 'Wake up', customer_id: customer.id });
      const woken = events(await held);
      const took = Date.now() - started;
      expect(woken.map((e) => [e.seq, e.type])).to.deep.equal([[from + 1, 'ticket.created']]);
      expect(took).to.be.greaterThanOrEqual(300).and.lessThan(3_000);

      const quiet = Date.now();
      expect(events(await api.get(`/v1/events?after=${from + 1}&wait=1`, { token: admin }))).to.deep.equal([]);
      expect(Date.now() - quiet)
        .to.be.greaterThanOrEqual(950)
        .and.lessThan(3_000);
      // Without wait an empty read answers at once.
      const at = Date.now();
      expect(events(await api.get(`/v1/events?after=${from + 1}`, { token: admin }))).to.deep.equal([]);
      expect(Date.now() - at).to.be.lessThan(900);
    });
  });

  describe('who may read it, and what it refuses', () => {
    it('agents and admins read it; customers are 403; no token is 401', async () => {
      expect((await api.get('/v1/events', { token: agent.token })).status).to.equal(200);
      expectError(await api.get('/v1/events', { token: customer.token }), 403, 40301);
      expect((await api.get('/v1/events')).status).to.equal(401);
    });

    it('names every bad parameter at once: 400', async () => {
      const bad = async (query: string, named: string[]): Promise<void> => {
        const a = await api.get(`/v1/events?${query}`, { token: admin });
        const body = expectError(a, 400, 40001) as unknown as Json;
        expect(
          (body.errors as { field: string }[]).map((e) => e.field),
          query,
        ).to.deep.equal(named);
      };
      await bad('after=-1&per_page=0&wait=31', ['after', 'per_page', 'wait']);
      await bad('after=abc&per_page=101&wait=1.5', ['after', 'per_page', 'wait']);
      await bad('after=007', ['after']);
      await bad('after=1&after=2', ['after']);
      await bad('per_page=', ['per_page']);
      await bad('wait=-0', ['wait']);
      // A customer hears 403 whatever the parameters.
      expectError(await api.get('/v1/events?after=-1', { token: customer.token }), 403, 40301);
    });
  });
});

describe('HTTP: the change feed at shutdown and after retention', () => {
  it('a held read ends at once, with [], when the server stops', async () => {
    const api = await startApi();
    const admin = await api.adminToken();
    const from = await newestSeq(api, admin);
    const held = api.get(`/v1/events?after=${from}&wait=30`, { token: admin });
    await sleep(300);
    // Answered, not cut: the harness gives in-flight requests 1 s before it cuts connections.
    const closing = Date.now();
    const closed = api.close();
    expect(events(await held)).to.deep.equal([]);
    expect(Date.now() - closing).to.be.lessThan(900);
    await closed;
  });

  it('forgets events older than EVENTS_RETENTION_DAYS: an older cursor is 410 naming the oldest kept seq', async () => {
    const api = await startApi({ EVENTS_RETENTION_DAYS: '1' });
    try {
      let admin = await api.adminToken();
      const customer = await api.userWithToken('customer');
      await createTicket(api, admin, { subject: 'Old news', customer_id: customer.id });
      const old = await newestSeq(api, admin);
      api.clock.advance(2 * 86_400_000);
      // Two days on, the tokens have expired too.
      admin = await api.login(adminEmail, adminPassword);
      const fresh = await createTicket(api, admin, { subject: 'Fresh news', customer_id: customer.id });
      // The server forgets at start and hourly; here, now.
      await api.server.app.events.forgetOld();

      const expired = expectError(await api.get('/v1/events?after=0', { token: admin }), 410, 41002) as unknown as Json;
      expect(expired.oldest_seq).to.equal(old + 1);
      expect(expired.description).to.include(`after=${old}`);
      expectError(await api.get(`/v1/events?after=${old - 1}`, { token: admin }), 410, 41002);
      const kept = events(await api.get(`/v1/events?after=${old}`, { token: admin }));
      expect(kept.map((e) => [e.seq, e.type, e.resource.id])).to.deep.equal([[old + 1, 'ticket.created', fresh.id]]);
    } finally {
      await api.close();
    }
  });
});
