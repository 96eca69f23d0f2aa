// Benchmark (not a test): how much work per request the anchor goals leave, and how much the
// service does, for the small answers (one ticket's 304 and its plain 200).
//
//   npx -y pnpm@10 bench:anchors:budget     # builds, then ~5-7 min; BENCH_ROUNDS, BENCH_SECONDS, BENCH_WORK_US
//
// 1. The budget curve: the raw anchor (raw-server.ts) as bench:anchors runs it (pinned, TLS, 50
//    keep-alive connections, fresh processes, interleaved rounds), but spending W µs of CPU per
//    request before it answers, for W in BENCH_WORK_US (0,10,20,40,80). Its req/s over the same
//    round's W = 0 is what a server doing W µs more than raw per request can reach here: the
//    goal "0.8x raw" is the W where that ratio falls to 0.8. In the same rounds, the raw anchor
//    doing instead the work the contract asks of every request, written with no framework
//    (raw-server.ts `contract`: request id, token digest and lookup, rate-limit count and
//    headers, version read and cache-key lookup, access-log line): the floor of any server
//    that keeps the contract.
// 2. The service's own work: the service's request listener called in this process (no
//    sockets, no TLS: an IncomingMessage and a ServerResponse on a socket that drops what it is
//    given), against a raw listener writing the same status, headers and body on the same
//    socket. The difference in CPU time per request is what the service does that raw does not
//    (token digest and lookup, rate-limit count, access-log line, version read and cache
//    lookup, Koa's context, the stages): the work the budget has to cover.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createHttpApp, type HttpApp } from '@support/adapter-http-koa';
import { configFromEnv, jsonLogger, startServer, TYPES } from '@support/server';
import { writeCertificate } from '../support/cert.js';
import { httpsClient } from '../support/https-client.js';
import { knob } from '../support/knobs.js';
import { pinLoadGenerator } from '../support/pinning.js';
import { firstLine, startNode, stop } from '../support/processes.js';
import { createTickets, createUser, login } from '../support/seed.js';
import { captureAnswers } from './capture.js';
import { portOf } from './captured.js';
import { endpointsFor, routesFor } from './endpoints.js';
import { drive } from './load.js';
import { startService } from './service.js';
import { median } from './table.js';

const rounds = knob('BENCH_ROUNDS', 3, 1);
const seconds = knob('BENCH_SECONDS', 4, 1);
const works = (process.env.BENCH_WORK_US ?? '0,10,20,40,80').split(',').map(Number);
if (works[0] !== 0 || works.some((w) => !Number.isFinite(w) || w < 0)) {
  console.error('BENCH_WORK_US must be a list of µs starting with 0, e.g. 0,10,20,40,80');
  process.exit(2);
}
const names = ['GET ticket, 304', 'GET ticket, plain'];

const pin = pinLoadGenerator();
if (pin.warning !== null)
  console.log(`${'!'.repeat(100)}\n!!! ${pin.warning}\n!!! NOT comparable with pinned runs\n${'!'.repeat(100)}`);
const work = mkdtempSync(join(tmpdir(), 'bench-budget-'));
process.on('exit', () => {
  rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));
const tls = await writeCertificate(work);
console.log(
  `budget: ${rounds} rounds × ${works.length} work sizes × ${names.length} endpoints, 50 connections, 1 s warm-up + ${seconds} s; then the service in-process\n` +
    `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
);

// ---------------------------------------------------------------------------- 1. the curve

// The answers to replay: a service seeded as bench:anchors seeds it, captured, then stopped.
const service = await startService({ prefix: pin.prefix, tls, tickets: 200 });
const routes = routesFor(service);
const captured = await captureAnswers(service.http, service.token, routes);
const etag = captured.routes.find((r) => r.path === routes.ticket.path)?.notModified?.etag ?? '';
const endpoints = endpointsFor(routes, { etag, token: service.token }).filter((e) => names.includes(e.name));
await service.stop();
const captureFile = join(work, 'capture.json');
writeFileSync(captureFile, JSON.stringify(captured));
const rawScript = fileURLToPath(new URL('raw-server.js', import.meta.url));

// The work sizes, then the contract's work with no framework.
type Work = number | 'contract';
const runs: Work[] = [...works, 'contract'];
interface Point {
  readonly rps: number;
  readonly cpuPerRequest: number;
}
/** endpoint name -> work (or 'contract') -> per-round points */
const curve = new Map(names.map((n) => [n, new Map<Work, Point[]>(runs.map((w) => [w, []]))]));
const pointsOf = (name: string, w: Work): Point[] => curve.get(name)?.get(w) ?? [];
for (let round = 0; round < rounds; round++) {
  // The order rotates, as bench:anchors rotates its servers.
  const order = runs.map((_, i) => runs[(i + round) % runs.length] ?? 0);
  for (const w of order) {
    // The contract's run takes the service's token (the one the requests carry) from its environment.
    const child = startNode(pin.prefix, [rawScript, captureFile, tls.certFile, tls.keyFile, String(w)], {
      env: { ...process.env, BENCH_TOKEN: service.token },
    });
    const server = { pid: child.child.pid, port: portOf(await firstLine(child, 'raw')) };
    for (const endpoint of endpoints) await drive(server, endpoint, { connections: 50, warmup: 0, seconds: 1 });
    for (const endpoint of endpoints) {
      const r = await drive(server, endpoint, { connections: 50, warmup: 1, seconds });
      if (r.errors > 0)
        throw new Error(
          `raw with ${w === 'contract' ? "the contract's work" : `${w} µs of work`}: ${r.errors} errors on ${endpoint.name}`,
        );
      pointsOf(endpoint.name, w).push({ rps: r.rps, cpuPerRequest: (r.serverCpu / r.rps) * 1e6 });
    }
    await stop(child);
  }
  console.log(`round ${round + 1} of ${rounds} done`);
}

console.log(
  "\n### Raw with W µs of work per request, and with the contract's work (no framework), × raw (W = 0) in the same round\n",
);
console.log(`| W µs | ${names.map((n) => `${n.replace('GET ticket, ', '')} × raw | CPU µs/request`).join(' | ')} |`);
console.log(`|--:|${names.map(() => '--:|--:').join('|')}|`);
const ratioAt = (name: string, w: Work) => {
  const base = pointsOf(name, 0);
  return median(pointsOf(name, w).map((r, i) => r.rps / (base[i]?.rps ?? NaN)));
};
for (const w of runs) {
  const cells = names.map(
    (n) => `${ratioAt(n, w).toFixed(2)} | ${Math.round(median(pointsOf(n, w).map((r) => r.cpuPerRequest)))}`,
  );
  console.log(`| ${w === 'contract' ? "the contract's work, no framework" : w} | ${cells.join(' | ')} |`);
}
/** The W (linear between measured points) at which the ratio falls to `target`. */
const workAt = (name: string, target: number) => {
  for (let i = 1; i < works.length; i++) {
    const [w0 = 0, w1 = 0] = [works[i - 1], works[i]];
    const [r0, r1] = [ratioAt(name, w0), ratioAt(name, w1)];
    if (r1 <= target && r0 > target) return w0 + ((r0 - target) / (r0 - r1)) * (w1 - w0);
  }
  return NaN;
};

// ---------------------------------------------------------------------------- 2. in-process

// The production logger, its lines dropped instead of written: a line is still built per request.
const logger = jsonLogger({ write: () => undefined });
const made: { httpApp: HttpApp | null } = { httpApp: null };
const adminPassword = 'budget-bench-admin-password';
const inProcess = await startServer(
  configFromEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    STORE: 'memory',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: adminPassword,
    RATE_LIMIT: '1000000000',
    TLS_CERT_FILE: tls.certFile,
    TLS_KEY_FILE: tls.keyFile,
  }),
  {
    rebind: (c) => {
      c.rebindSync(TYPES.Logger).toConstantValue(logger);
      // The HTTP app as the container makes it (server.ts listens with its callback), kept here to call it directly.
      c.rebindSync(TYPES.HttpApp).toResolvedValue(
        (app, startup) => (publicUrl: string, shutdown: AbortSignal) =>
          (made.httpApp = createHttpApp(app, { publicUrl, trustProxy: false, logger, shutdown, startup })),
        [TYPES.Application, TYPES.Startup],
      );
    },
  },
);
const http = httpsClient({ port: inProcess.port, ca: tls.cert });
const token = await login(http, 'admin@example.com', adminPassword);
const customer = await createUser(http, token, {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'customer',
  password: 'analytical-engine',
});
const [ticket] = await createTickets(http, token, [
  {
    subject: 'Printer error on login',
    summary: 'The printer fails after login.',
    priority: 'normal',
    customer_id: customer,
  },
]);
const path = `/v1/tickets/${ticket ?? 0}`;
const plain = await http.send({ path, token });
http.close();
const { httpApp } = made;
if (httpApp === null) throw new Error('the HTTP app was not made');
const listener = httpApp.callback();

// A socket that takes what it is given and drops it, as if the client had read it at once.
class DroppingSocket extends Duplex {
  override _read() {
    // Nothing to read: the request is pushed whole.
  }
  override _write(_chunk: unknown, _encoding: BufferEncoding, callback: () => void) {
    callback();
  }
  override _writev(_chunks: unknown, callback: () => void) {
    callback();
  }
}
const socket = Object.assign(new DroppingSocket(), {
  encrypted: true,
  remoteAddress: '127.0.0.1',
  remotePort: 40000,
}) as unknown as Socket;
const requestHeaders: Record<'304' | 'plain', IncomingHttpHeaders> = {
  304: { host: '127.0.0.1', authorization: `Bearer ${token}`, 'if-none-match': plain.headers.etag },
  plain: { host: '127.0.0.1', authorization: `Bearer ${token}` },
};
// Raw's answer: the service's own header lines (Node adds Date and Connection to both).
const answerHeaders = Object.entries(plain.headers)
  .filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(k))
  .flatMap(([k, v]) => (v === undefined ? [] : Array.isArray(v) ? v.flatMap((one) => [k, one]) : [k, v]));
const rawListener = (req: IncomingMessage, res: ServerResponse) => {
  if (req.headers['if-none-match'] === plain.headers.etag) {
    res.writeHead(304, answerHeaders);
    res.end();
  } else {
    res.writeHead(200, [...answerHeaders, 'content-length', String(plain.bytes.length)]);
    res.end(plain.bytes);
  }
};
type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;
const once = async (handle: Listener, headers: IncomingHttpHeaders, expected: number) => {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = path;
  req.headers = headers;
  req.push(null);
  const res = new ServerResponse(req);
  res.assignSocket(socket);
  await handle(req, res);
  res.detachSocket(socket);
  if (res.statusCode !== expected) throw new Error(`in-process: expected ${expected}, got ${res.statusCode}`);
};
const cpuPerRequest = async (handle: Listener, headers: IncomingHttpHeaders, expected: number, n: number) => {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await once(handle, headers, expected);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
};
const n = 20_000;
const perKind: Record<'304' | 'plain', { service: number[]; raw: number[] }> = {
  304: { service: [], raw: [] },
  plain: { service: [], raw: [] },
};
// A first pass for the JIT, then rounds interleaving service and raw.
for (let round = 0; round <= 5; round++) {
  for (const kind of ['304', 'plain'] as const) {
    const expected = kind === '304' ? 304 : 200;
    const s = await cpuPerRequest(listener, requestHeaders[kind], expected, n);
    const r = await cpuPerRequest(rawListener, requestHeaders[kind], expected, n);
    if (round > 0) {
      perKind[kind].service.push(s);
      perKind[kind].raw.push(r);
    }
  }
}
await inProcess.close();

console.log(
  '\n### In-process CPU time per request (no sockets, no TLS), medians of 5 rounds; W from the curve above, in µs\n',
);
console.log('| answer | service µs | raw µs | service − raw µs | W where raw + W falls to 0.8x raw | to 0.6x raw |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const [kind, name] of [
  ['304', 'GET ticket, 304'],
  ['plain', 'GET ticket, plain'],
] as const) {
  const s = median(perKind[kind].service);
  const r = median(perKind[kind].raw);
  const extra = median(perKind[kind].service.map((x, i) => x - (perKind[kind].raw[i] ?? NaN)));
  const leaves = (target: number) =>
    Number.isFinite(workAt(name, target)) ? Math.round(workAt(name, target)) : `beyond ${works.at(-1) ?? 0}`;
  console.log(
    `| ${kind} | ${s.toFixed(1)} | ${r.toFixed(1)} | ${extra.toFixed(1)} | ${leaves(0.8)} | ${leaves(0.6)} |`,
  );
}
process.exit(0);
