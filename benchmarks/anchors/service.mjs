// The service under test: the real entry point (`packages/server/dist/src/main.js`, as
// `pnpm start` runs it) in its own process, on the memory store, with the benchmark's
// certificate; then seeded over HTTPS as a client would (an admin token, a customer, tickets).
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { client } from './https-client.mjs';
import { startNode } from './processes.mjs';
import { ticketBodies } from './seed-data.mjs';

const mainJs = fileURLToPath(new URL('../../packages/server/dist/src/main.js', import.meta.url));
const adminEmail = 'admin@example.com';
const adminPassword = 'anchor-bench-admin-password';

/** A port free right now (the service needs a number in PORT; its own log goes to /dev/null). */
const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries `attempt` (which answers a value or undefined) until it answers or the time is up. */
const until = async (what, child, attempt, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the service exited while ${what}: ${child.stderrTail()}`);
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`the service was not ${what} within ${timeoutMs} ms: ${child.stderrTail()}`);
    await sleep(100);
  }
};

const must = (answer, status, what) => {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 300)}`);
  return JSON.parse(answer.text);
};

/**
 * Starts and seeds one service process (`nodeArgs` before the script, e.g. --cpu-prof; `env`
 * added to its clean environment). Answers the child, its port, an https client, the
 * admin's token, the seeded ticket ids and the customer's id.
 */
export const startService = async ({ prefix, tls, tickets, nodeArgs = [], env: extraEnv = {} }) => {
  const port = await freePort();
  // A clean environment: nothing from the caller's shell (STORE, MONGO_URL, ...) leaks in.
  const env = {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    STORE: 'memory',
    TLS_CERT_FILE: tls.certFile,
    TLS_KEY_FILE: tls.keyFile,
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    RATE_LIMIT: '1000000000',
    ...extraEnv,
  };
  const child = startNode(prefix, [...nodeArgs, mainJs], { env, stdout: 'ignore' });
  const http = client(port, tls.cert);
  await until('listening', child, async () =>
    (await http.send({ path: '/healthz' })).status === 200 ? true : undefined,
  );
  // The first admin is created just after the port opens: retry the login until it exists.
  const token = await until('creating its admin', child, async () => {
    const a = await http.send({
      method: 'POST',
      path: '/v1/oauth/token',
      body: { grant_type: 'password', username: adminEmail, password: adminPassword },
    });
    return a.status === 200 ? JSON.parse(a.text).access_token : undefined;
  });
  const auth = { authorization: `Bearer ${token}` };
  const customer = must(
    await http.send({
      method: 'POST',
      path: '/v1/users',
      headers: auth,
      body: { name: 'Ada Lovelace', email: 'ada@example.com', role: 'customer', password: 'analytical-engine' },
    }),
    201,
    'creating the customer',
  );
  const bodies = ticketBodies(tickets, customer.id);
  const ticketIds = [];
  // In order (one at a time would be slow, a free-for-all would shuffle ids): 16 at a time.
  for (let i = 0; i < bodies.length; i += 16) {
    const batch = await Promise.all(
      bodies.slice(i, i + 16).map((body) => http.send({ method: 'POST', path: '/v1/tickets', headers: auth, body })),
    );
    for (const a of batch) ticketIds.push(must(a, 201, 'seeding a ticket').id);
  }
  return { child, port, http, token, ticketIds, customerId: customer.id };
};
