// Benchmark (not a test): GET one ticket with a personal access token against a login token,
// in the same run (contract §8, issue 22: token lookup stays O(1) per request, >= 0.95x).
//
//   npx -y pnpm@10 bench:tokens                      # builds, then ~60 s
//   BENCH_SECONDS=3 BENCH_ROUNDS=4 node benchmarks/personal-token.mjs
//
// The composition root in this process (memory store, ephemeral HTTPS port), 1000 tickets
// seeded through the use cases, then rounds that alternate login / personal / mistyped
// (a personal token with a wrong checksum: refused 401 before any store call) at concurrency
// BENCH_CONCURRENCY (default 8), closed loop over keep-alive connections. Interleaving the
// rounds spreads the machine's noise over both; the ratio is personal / login per round and
// its median. It imports the compiled packages by name (run `tsc -b` first; `pnpm bench:tokens` does).
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { configFromEnv, startServer, TYPES } from '@support/server';
import { TicketCreateBody, UserCreateBody } from '../packages/adapter-http-koa/dist/src/decode/bodies.js';
import { decodeBody } from '../packages/adapter-http-koa/dist/src/decode/object-codec.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const host = '127.0.0.1';
const silent = { info: () => undefined, error: () => undefined };
const server = await startServer(
  configFromEnv({
    PORT: '0',
    STORE: 'memory',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'bench-admin-password',
    RATE_LIMIT: '100000000',
  }),
  {
    rebind: (c) => {
      c.rebindSync(TYPES.Logger).toConstantValue(silent);
    },
    shutdownGraceMs: 1_000,
  },
);

const send = (agent, method, path, { body, token } = {}) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers =
      payload === null ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) };
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    const req = request(
      { host, port: server.port, method, path, headers, agent, ca: server.cert, servername: 'localhost' },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== null) req.write(payload);
    req.end();
  });

const setup = new Agent({ keepAlive: true, maxSockets: 1, ca: server.cert });
const login = await send(setup, 'POST', '/v1/oauth/token', {
  body: { grant_type: 'password', username: 'admin@example.com', password: 'bench-admin-password' },
});
const loginToken = JSON.parse(login.text).access_token;
const made = await send(setup, 'POST', '/v1/users/me/tokens', {
  body: { name: 'bench', scopes: ['tickets:read'] },
  token: loginToken,
});
if (made.status !== 201) throw new Error(`making the personal token: ${made.status} ${made.text}`);
const personalToken = JSON.parse(made.text).token;
const mistyped = personalToken.slice(0, -1) + (personalToken.endsWith('A') ? 'B' : 'A');

const admin = (await server.app.auth.authenticate(loginToken)).right;
const customer = (
  await server.app.users.create(
    admin,
    decodeBody(UserCreateBody, { name: 'C', email: 'c@example.com', role: 'customer', password: 'customer-password' }),
  )
).right;
const ids = [];
for (let i = 0; i < 1000; i++)
  ids.push(
    (
      await server.app.tickets.create(
        admin,
        decodeBody(TicketCreateBody, { subject: `Ticket ${i}`, customer_id: customer.id }),
      )
    ).right.ticket.id,
  );

/** Closed loop for `ms`; requests per second, and how many answers were not `expect`. */
const drive = async (token, expect, ms) => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca: server.cert });
  let n = 0;
  let wrong = 0;
  const deadline = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      let i = 0;
      while (performance.now() < deadline) {
        const a = await send(agent, 'GET', `/v1/tickets/${ids[(i += 7) % ids.length]}`, { token });
        n += 1;
        if (a.status !== expect) wrong += 1;
      }
    }),
  );
  agent.destroy();
  return { rps: (n / (performance.now() - started)) * 1000, wrong };
};

for (const t of [loginToken, personalToken]) await drive(t, 200, 1_000); // warm-up
const ratios = [];
const lines = [];
for (let r = 1; r <= rounds; r++) {
  const l = await drive(loginToken, 200, seconds * 1000);
  const p = await drive(personalToken, 200, seconds * 1000);
  const m = await drive(mistyped, 401, seconds * 1000);
  if (l.wrong + p.wrong + m.wrong > 0) throw new Error(`unexpected statuses: ${l.wrong} ${p.wrong} ${m.wrong}`);
  ratios.push(p.rps / l.rps);
  lines.push(
    `round ${r}: login ${l.rps.toFixed(0)}/s, personal ${p.rps.toFixed(0)}/s (${(p.rps / l.rps).toFixed(3)}x), mistyped 401 ${m.rps.toFixed(0)}/s`,
  );
}
ratios.sort((a, b) => a - b);
console.log(
  `personal-token bench: GET /v1/tickets/{id}, concurrency ${concurrency}, ${seconds} s per run, ${rounds} rounds, Node ${process.version}`,
);
for (const line of lines) console.log(`  ${line}`);
console.log(`  median personal / login: ${ratios[Math.floor(ratios.length / 2)].toFixed(3)}x (goal >= 0.95x)`);
await server.close();
process.exit(0);
