import { expect } from 'chai';
import { adminEmail, adminPassword, startApi, type Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { expectError } from '../support/oauth.js';
import { createTicket, linkRels, obj, pathOf, type Json } from '../support/resources.js';
import { eventsCast, type Person } from '../support/casts.js';
import { events, newestSeq, sleep } from '../support/feed.js';

// The change feed (contract §7.3) over HTTPS: what each write appends, reading by cursor,
// the long poll, roles, bad parameters and retention.

describe('HTTP: the change feed (GET /v1/events)', () => {
  let api: Api, admin: string, agent: Person, customer: Person;
  suiteCast(async () => ({ api, admin, agent, customer } = await eventsCast()));

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
