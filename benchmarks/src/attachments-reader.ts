// The metadata reader of the attachments benchmark, in a process of its own (so that the 50 MiB
// the uploader encrypts never delays its own timing): one GET at a time, each request's
// milliseconds filed under the phase it started in. The phase is the last line read on stdin:
// "service <name>" GETs TICKET from the service (port SERVICE, with TOKEN), "raw <name>" GETs
// /ticket from the raw server (port RAW), "idle" waits; "end" prints
// {"service quiet": [ms, ...], ...} on stdout and exits.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { httpsClient, type Call, type HttpsClient } from './support/https-client.js';
import { sleep } from './support/service.js';

const { SERVICE, RAW, CA = '', TOKEN = '', TICKET = '' } = process.env;
const ca = readFileSync(CA);
const targets = new Map<string, { client: HttpsClient; call: Call }>([
  [
    'service',
    {
      client: httpsClient({ port: Number(SERVICE), ca, maxSockets: 2, discardBodies: true }),
      call: { path: TICKET, token: TOKEN },
    },
  ],
  [
    'raw',
    { client: httpsClient({ port: Number(RAW), ca, maxSockets: 2, discardBodies: true }), call: { path: '/ticket' } },
  ],
]);
const samples: Record<string, number[]> = {};
const state = { phase: 'idle', ended: false };

/** This process's ms spent runnable but waiting for a CPU so far (schedstat; 0 where unknown). */
const waitedMs = (): number => {
  try {
    return Number(readFileSync('/proc/self/schedstat', 'utf8').split(' ')[1] ?? 0) / 1e6;
  } catch {
    return 0;
  }
};
// "wait <phase>": the reader's own wait for its CPU per phase (the uploader shares its core).
let waitedBefore = waitedMs();
const fileWait = (): void => {
  const now = waitedMs();
  const filed = (samples[`wait ${state.phase}`] ??= [0]);
  filed[0] = (filed[0] ?? 0) + now - waitedBefore;
  waitedBefore = now;
};
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  fileWait();
  if (line === 'end') state.ended = true;
  else state.phase = line;
});

while (!state.ended) {
  const tag = state.phase;
  const target = targets.get(tag.split(' ')[0] ?? '');
  if (target === undefined) {
    await sleep(5);
    continue;
  }
  const started = performance.now();
  const a = await target.client.send(target.call);
  if (a.status !== 200) throw new Error(`GET answered ${a.status}`);
  (samples[tag] ??= []).push(performance.now() - started);
}
for (const { client } of targets.values()) client.close();
// Exits once written: stdout is a pipe, written asynchronously.
process.stdout.write(`${JSON.stringify(samples)}\n`, () => process.exit(0));
