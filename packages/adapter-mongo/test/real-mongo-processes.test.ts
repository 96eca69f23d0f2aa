import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { realEngines } from './support/real-mongo.js';
import { login, startService, type ServiceProcess } from './support/service-process.js';

// Two whole service processes on one database (a real mongod only): they share the id
// sequences, the rate-limit counters and the tokens, as contract §6 promises when several
// processes serve behind one address. Skipped, with the suite's NOT RUN line, without one.

const withDatabase = (url: string, db: string): string => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

for (const engine of realEngines())
  describe(`MongoDB: two service processes on one database (${engine.name})`, function () {
    this.timeout(180_000);
    const password = 'two-processes-admin';
    let services: ServiceProcess[] = [];
    let url = '';
    let dbName = '';

    before(async function () {
      const mongo = await engine.resolve();
      if (!mongo.available) {
        this.skip();
        return;
      }
      dbName = `processes_${randomBytes(6).toString('hex')}`;
      url = withDatabase(mongo.url, dbName);
      // Both start at once on an empty database: one creates the first admin, both serve.
      // 100 requests per user and window (10 per client IP unauthenticated: the logins below fit).
      const env = { ADMIN_PASSWORD: password, RATE_LIMIT: '100', RATE_LIMIT_WINDOW_S: '3600' };
      services = await Promise.all([startService(url, env), startService(url, env)]);
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

    it('a token issued by one process is accepted by the other, and a revocation on either holds on both', async () => {
      const [a, b] = services as [ServiceProcess, ServiceProcess];
      const token = await login(a, 'admin@example.com', password);
      expect((await b.request('GET', '/v1/users/me', { token })).status).to.equal(200);
      expect((await b.request('POST', '/v1/oauth/revoke', { form: `token=${token}` })).status).to.equal(200);
      expect((await a.request('GET', '/v1/users/me', { token })).status).to.equal(401);
    });

    it('ids come from one sequence: tickets created on both at once get distinct ids', async () => {
      const [a, b] = services as [ServiceProcess, ServiceProcess];
      const token = await login(a, 'admin@example.com', password);
      const customer = await a.request('POST', '/v1/users', {
        token,
        body: { name: 'Ada', email: `ada-${Date.now()}@example.com`, role: 'customer', password: 'analytical-engine' },
      });
      expect(customer.status).to.equal(201);
      const customerId = (customer.json as { id: number }).id;
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).request('POST', '/v1/tickets', {
            token,
            body: { subject: `Ticket ${i}`, customer_id: customerId },
          }),
        ),
      );
      expect(created.map((r) => r.status)).to.deep.equal(Array.from({ length: 20 }, () => 201));
      const ids = created.map((r) => (r.json as { id: number }).id);
      expect(new Set(ids).size).to.equal(20);
      const listed = await b.request('GET', `/v1/tickets?per_page=100&sort=id`, { token });
      expect((listed.json as { id: number }[]).map((t) => t.id)).to.include.members(ids);
    });

    it('one rate limit for a user across both processes: 100 requests of the window pass, the next ones are 429 on whichever process gets them', async () => {
      const [a, b] = services as [ServiceProcess, ServiceProcess];
      const admin = await login(a, 'admin@example.com', password);
      const email = `limited-${Date.now()}@example.com`;
      expect(
        (
          await a.request('POST', '/v1/users', {
            token: admin,
            body: { name: 'Limited', email, role: 'agent', password: 'limited-password' },
          })
        ).status,
      ).to.equal(201);
      const token = await login(b, email, 'limited-password');
      const statuses: number[] = [];
      for (let i = 0; i < 110; i++)
        statuses.push((await (i % 2 === 0 ? a : b).request('GET', '/v1/users/me', { token })).status);
      expect(
        statuses.slice(0, 100).every((s) => s === 200),
        JSON.stringify(statuses),
      ).to.equal(true);
      expect(
        statuses.slice(100).every((s) => s === 429),
        JSON.stringify(statuses),
      ).to.equal(true);
    });
  });
