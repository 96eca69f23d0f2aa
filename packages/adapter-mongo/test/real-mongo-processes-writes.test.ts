import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import { realEngines } from './support/real-mongo.js';
import { login, startService, type Answer, type ServiceProcess } from './support/service-process.js';

// Two whole service processes writing to one database (a real server only): a kept
// Idempotency-Key answered by the other process, the change feed's order across writers on
// both, webhook deliveries under the lease (each event once, in seq order, whichever process
// wrote it), and the numbers: writes/s through one process and through two, and how long an
// event takes to reach a reader on the other process. Skipped, with the suite's NOT RUN line,
// without a server.

interface FeedEvent {
  readonly seq: number;
  readonly type: string;
  readonly resource: { readonly type: string; readonly id: number };
}

const withDatabase = (url: string, db: string): string => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;

/** A webhook receiver on loopback that answers 200 and keeps every body. */
const receiver = async (): Promise<{ url: string; bodies: FeedEvent[]; ids: string[]; server: Server }> => {
  const bodies: FeedEvent[] = [];
  const ids: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (s: string) => (text += s));
    req.on('end', () => {
      bodies.push(JSON.parse(text) as FeedEvent);
      ids.push(String(req.headers['webhook-id']));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/hook`, bodies, ids, server };
};

for (const engine of realEngines())
  describe(`MongoDB: two service processes writing to one database (${engine.name})`, function () {
    this.timeout(300_000);
    const password = 'two-writers-admin';
    let services: ServiceProcess[] = [];
    let url = '';
    let dbName = '';
    let token = '';
    let customerId = 0;

    before(async function () {
      const mongo = await engine.resolve();
      if (!mongo.available) {
        this.skip();
        return;
      }
      dbName = `writers_${randomBytes(6).toString('hex')}`;
      url = withDatabase(mongo.url, dbName);
      const env = {
        ADMIN_PASSWORD: password,
        RATE_LIMIT: '1000000',
        RATE_LIMIT_WINDOW_S: '3600',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      };
      services = await Promise.all([startService(url, env), startService(url, env)]);
      const [a] = services as [ServiceProcess];
      token = await login(a, 'admin@example.com', password);
      const customer = await a.request('POST', '/v1/users', {
        token,
        body: { name: 'Grace', email: `grace-${Date.now()}@example.com`, role: 'customer', password: 'compiler-first' },
      });
      expect(customer.status).to.equal(201);
      customerId = (customer.json as { id: number }).id;
    });
    after(async () => {
      await Promise.all(services.map((s) => s.stop()));
      if (url !== '') {
        const admin = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
        try {
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      }
    });

    const create = (s: ServiceProcess, subject: string, headers?: Record<string, string>) =>
      s.request('POST', '/v1/tickets', {
        token,
        body: { subject, customer_id: customerId },
        ...(headers === undefined ? {} : { headers }),
      });
    const newestSeq = async (s: ServiceProcess): Promise<number> => {
      let after = 0;
      for (;;) {
        const page = await s.request('GET', `/v1/events?after=${String(after)}&per_page=100`, { token });
        const events = page.json as FeedEvent[];
        if (events.length === 0) return after;
        after = events[events.length - 1]?.seq ?? after;
      }
    };
    /** Reads the feed on `s` from `after` until `until` says enough (long polls of 1 s), noting when each event arrived. */
    const follow = async (s: ServiceProcess, after: number, until: (seen: FeedEvent[]) => boolean, ms = 60_000) => {
      const seen: { event: FeedEvent; at: number }[] = [];
      const end = Date.now() + ms;
      let cursor = after;
      while (!until(seen.map((e) => e.event)) && Date.now() < end) {
        const page = await s.request('GET', `/v1/events?after=${String(cursor)}&per_page=100&wait=1`, { token });
        expect(page.status, JSON.stringify(page.json)).to.equal(200);
        const at = performance.now();
        for (const event of page.json as FeedEvent[]) seen.push({ event, at });
        cursor = seen[seen.length - 1]?.event.seq ?? cursor;
      }
      return seen;
    };

    it('an Idempotency-Key used on one process is replayed by the other: one ticket, the same answer', async () => {
      const [a, b] = services as [ServiceProcess, ServiceProcess];
      const key = `key-${randomBytes(8).toString('hex')}`;
      const first = await create(a, 'Kept once', { 'Idempotency-Key': key });
      expect(first.status).to.equal(201);
      const again = await create(b, 'Kept once', { 'Idempotency-Key': key });
      expect(again.status).to.equal(201);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.json).to.deep.equal(first.json);
      // The same new key on both at once: one runs, the other replays it or is told to retry (409).
      const both = `key-${randomBytes(8).toString('hex')}`;
      const racing = await Promise.all([a, b].map((s) => create(s, 'Raced once', { 'Idempotency-Key': both })));
      const ran = racing.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
      expect(ran, JSON.stringify(racing.map((r) => r.status))).to.have.length(1);
      for (const r of racing) expect([201, 409]).to.include(r.status);
      const listed = await b.request('GET', '/v1/tickets?per_page=100&sort=id', { token });
      const subjects = (listed.json as { subject: string }[]).map((t) => t.subject);
      expect(subjects.filter((s) => s === 'Kept once')).to.have.length(1);
      expect(subjects.filter((s) => s === 'Raced once')).to.have.length(1);
    });

    it('the feed across writers: tickets created on both at once are read on either as seqs n+1, n+2, ... each once', async () => {
      const [a, b] = services as [ServiceProcess, ServiceProcess];
      const from = await newestSeq(b);
      const created = await Promise.all(
        Array.from({ length: 40 }, (_, i) => create(i % 2 === 0 ? a : b, `Feed order ${String(i)}`)),
      );
      expect(created.map((r) => r.status)).to.deep.equal(Array.from({ length: 40 }, () => 201));
      const ids = new Set(created.map((r) => (r.json as { id: number }).id));
      for (const reader of [a, b]) {
        const seen = (await follow(reader, from, (e) => e.length >= 40)).map((e) => e.event);
        expect(seen.map((e) => e.seq)).to.deep.equal(Array.from({ length: 40 }, (_, i) => from + i + 1));
        expect(seen.every((e) => e.type === 'ticket.created' && ids.has(e.resource.id))).to.equal(true);
        expect(new Set(seen.map((e) => e.resource.id)).size).to.equal(40);
      }
    });

    it('webhook deliveries with two processes: every event once, in seq order, whichever process wrote it', async () => {
      const [a, b] = services as [ServiceProcess, ServiceProcess];
      const hook = await receiver();
      let webhook = 0;
      try {
        const made = await a.request('POST', '/v1/webhooks', {
          token,
          body: { url: hook.url, events: ['ticket.created'], description: 'two processes' },
        });
        expect(made.status, JSON.stringify(made.json)).to.equal(201);
        webhook = (made.json as { id: number }).id;
        // One write at a time, alternately on each process: the leases are what this checks (the
        // feed's concurrent writers have the test above).
        const created: Answer[] = [];
        for (let i = 0; i < 30; i++) created.push(await create(i % 2 === 0 ? a : b, `Hooked ${String(i)}`));
        expect(created.map((r) => r.status)).to.deep.equal(Array.from({ length: 30 }, () => 201));
        const end = Date.now() + 60_000;
        while (hook.bodies.length < 30 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => setTimeout(r, 2_000)); // a doubled delivery would arrive meanwhile
        const seqs = hook.bodies.map((e) => e.seq);
        expect(seqs, 'delivered in seq order, each once').to.deep.equal([...seqs].sort((x, y) => x - y));
        expect(new Set(hook.ids).size, JSON.stringify(hook.ids)).to.equal(hook.ids.length);
        const ids = created.map((r) => (r.json as { id: number }).id).sort((x, y) => x - y);
        expect(hook.bodies.map((e) => e.resource.id).sort((x, y) => x - y)).to.deep.equal(ids);
      } finally {
        if (webhook !== 0) await a.request('DELETE', `/v1/webhooks/${String(webhook)}`, { token });
        hook.server.closeAllConnections();
        await new Promise((r) => hook.server.close(r));
      }
    });

    it('prints writes/s through one process and through two (one writer each, then 16 at a time), and the feed lag seen on the other process', async () => {
      const [a, b] = services as [ServiceProcess, ServiceProcess];
      const burst = async (through: ServiceProcess[], label: string, concurrency: number, n: number) => {
        const answered = new Map<number, number>();
        const statuses: number[] = [];
        let next = 0;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: concurrency }, async (_, w) => {
            for (let i = next++; i < n; i = next++) {
              const r = await create(through[w % through.length] as ServiceProcess, `${label} ${String(i)}`);
              statuses.push(r.status);
              if (r.status === 201) answered.set((r.json as { id: number }).id, performance.now());
            }
          }),
        );
        const ms = performance.now() - started;
        const refused = statuses.filter((s) => s !== 201);
        const line = `${label}, ${String(concurrency)} writer(s): ${((answered.size * 1000) / ms).toFixed(0)} writes/s (${String(answered.size)} of ${String(n)} answered 201${refused.length === 0 ? '' : `, the others ${[...new Set(refused)].join('/')}`})`;
        console.log(`      ${line}`);
        return { answered, refused, line };
      };
      const runs = [
        await burst([a], 'one process', 1, 60),
        await burst([a, b], 'two processes', 2, 60),
        await burst([a], 'one process', 16, 200),
      ];
      const from = await newestSeq(b);
      // The reader on b follows the feed while both processes write, and stops at every event of
      // the writes answered 201 (all of them unless some were refused).
      let expected = 200;
      const reading = follow(b, from, (e) => e.length >= expected, 60_000);
      const both = await burst([a, b], 'two processes', 16, 200);
      runs.push(both);
      expected = both.answered.size;
      const seen = await reading;
      const lags = seen.map((e) => e.at - (both.answered.get(e.event.resource.id) ?? NaN));
      console.log(
        `      feed lag on the other process during the last run (event read minus 201 answered; negative: read before the answer arrived): median ${median(lags).toFixed(0)} ms, p95 ${quantile(lags, 0.95).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms`,
      );
      const failed = [a, b].flatMap((s) => s.output().split('\n')).filter((l) => /error/i.test(l));
      if (failed.length > 0)
        console.log(`      the last error a service logged: ${(failed.at(-1) ?? '').slice(0, 600)}`);
      for (const r of runs) expect(r.refused, `${r.line}: every write answered 201`).to.deep.equal([]);
      expect(seen.map((e) => e.event.seq)).to.deep.equal(Array.from({ length: 200 }, (_, i) => from + i + 1));
      expect(lags.every((l) => Number.isFinite(l))).to.equal(true);
    });
  });
