// Benchmark (not a test): GET one ticket with a personal access token against a login token,
// in the same run (contract §8, issue 22: token lookup stays O(1) per request, >= 0.95x).
//
//   npx -y pnpm@10 bench:tokens                      # builds, then ~60 s
//   BENCH_SECONDS=3 BENCH_ROUNDS=4 node benchmarks/dist/personal-token.js
//
// The composition root in this process (memory store, ephemeral HTTPS port), 1000 tickets
// seeded over HTTPS, then rounds that alternate login / personal / mistyped (a personal token
// with a wrong checksum: refused 401 before any store call) at concurrency BENCH_CONCURRENCY
// (default 8), closed loop over keep-alive connections. Interleaving the rounds spreads the
// machine's noise over both; the ratio is personal / login per round and its median.
import { closedLoop, expectJson, field, median } from './support/https-client.js';
import { startInProcess } from './support/in-process.js';
import { knob, knobSeconds, load } from './support/knobs.js';
import { createTickets, createUser } from './support/seed.js';

const seconds = knobSeconds('BENCH_SECONDS', 5);
const rounds = knob('BENCH_ROUNDS', 5, 1);
const concurrency = knob('BENCH_CONCURRENCY', 8, 1);
const service = await startInProcess();
const { http, token: loginToken } = service;

const personalToken = field(
  expectJson(
    await http.send({
      method: 'POST',
      path: '/v1/users/me/tokens',
      body: { name: 'bench', scopes: ['tickets:read'] },
      token: loginToken,
    }),
    201,
    'making the personal token',
  ),
  'token',
  'string',
);
const mistyped = personalToken.slice(0, -1) + (personalToken.endsWith('A') ? 'B' : 'A');

const customer = await createUser(http, loginToken, {
  name: 'C',
  email: 'c@example.com',
  role: 'customer',
  password: 'customer-password',
});
const ids = await createTickets(
  http,
  loginToken,
  Array.from({ length: 1000 }, (_, i) => ({ subject: `Ticket ${i}`, customer_id: customer })),
);

/** Closed loop for `ms`; requests per second, and how many answers were not `expect`. */
const drive = async (token: string, expect: number, ms: number) => {
  const client = service.client(concurrency, true);
  let wrong = 0;
  const next = Array.from({ length: concurrency }, () => 0);
  const { rps } = await closedLoop(concurrency, ms, async (w) => {
    const i = (next[w] = (next[w] ?? 0) + 7);
    const a = await client.send({ path: `/v1/tickets/${ids[i % ids.length] ?? 0}`, token });
    if (a.status !== expect) wrong += 1;
  });
  client.close();
  return { rps, wrong };
};

for (const t of [loginToken, personalToken]) await drive(t, 200, 1_000); // warm-up
const ratios: number[] = [];
const lines: string[] = [];
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
console.log(
  `personal-token bench: GET /v1/tickets/{id}, concurrency ${concurrency}, ${seconds} s per run, ${rounds} rounds, Node ${process.version}; ${load()}`,
);
for (const line of lines) console.log(`  ${line}`);
console.log(`  median personal / login: ${median(ratios).toFixed(3)}x (goal >= 0.95x)`);
await service.close();
process.exit(0);
