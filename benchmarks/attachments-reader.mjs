// The metadata reader of the attachments benchmark, in a process of its own (so that the 50 MiB
// the uploader encrypts never delays its own timing): one GET at a time, each request's
// milliseconds filed under the phase it started in. The phase is the last line read on stdin:
// "service <name>" GETs TICKET from the service (port SERVICE, with TOKEN), "raw <name>" GETs
// /ticket from the raw server (port RAW), "idle" waits; "end" prints
// {"service quiet": [ms, ...], ...} on stdout and exits.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { createInterface } from 'node:readline';

const { SERVICE, RAW, CA, TOKEN, TICKET } = process.env;
const agent = new Agent({ keepAlive: true, maxSockets: 2, ca: readFileSync(CA) });
const targets = {
  service: { port: Number(SERVICE), path: TICKET, headers: { authorization: `Bearer ${TOKEN}` } },
  raw: { port: Number(RAW), path: '/ticket', headers: {} },
};
const samples = {};
let phase = 'idle';
let ended = false;

const get = ({ port, path, headers }) =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent, servername: 'localhost' }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`GET answered ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'end') ended = true;
  else phase = line;
});

while (!ended) {
  const tag = phase;
  const target = targets[tag.split(' ')[0]];
  if (target === undefined) {
    await new Promise((r) => setTimeout(r, 5));
    continue;
  }
  const started = performance.now();
  await get(target);
  (samples[tag] ??= []).push(performance.now() - started);
}
agent.destroy();
// Exits once written: stdout is a pipe, written asynchronously.
process.stdout.write(`${JSON.stringify(samples)}\n`, () => process.exit(0));
