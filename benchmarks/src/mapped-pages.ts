// LMDB's mapped pages under a memory limit: fills a store of ~1.2 GB, then reads it whole three
// times through lmdb-js (as the embedded store's load and feed reads do), once with no limit and
// once in a memory cgroup of MAPPED_LIMIT_MB (default 256), and prints RSS / RssAnon / RssFile
// after each pass and whether the kernel killed the reader. Linux, as root (cgroup v1 memory
// controller or cgroup v2; drops the page cache first so that the pages are charged to the reader).
//   npx -y pnpm@10 bench:mapped       # builds, then node benchmarks/dist/mapped-pages.js
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { knob } from './support/knobs.js';

const limitMb = knob('MAPPED_LIMIT_MB', 256, 1);

if (process.argv[2] === 'read') {
  const status = (): Record<string, string> =>
    Object.fromEntries(
      readFileSync('/proc/self/status', 'latin1')
        .split('\n')
        .filter((l) => /^(VmRSS|RssAnon|RssFile)/.test(l))
        .map((l): [string, string] => [l.split(/:\s+/)[0] ?? l, l.split(/:\s+/)[1] ?? '']),
    );
  const env = open({ path: process.argv[3] ?? '' });
  const db = env.openDB<{ i: number; v: string }, number>({ name: 'events' });
  for (let pass = 0; pass < 3; pass++) {
    let bytes = 0;
    for (const { value } of db.getRange({})) bytes += value.v.length;
    console.log(`  pass ${pass}: ${bytes} bytes read; ${JSON.stringify(status())}`);
  }
  await env.close();
  process.exit(0);
}

// The writer's side (the reader, above, is this script started again with `read`).
const dir = mkdtempSync(join(tmpdir(), 'mapped-pages-'));
const path = join(dir, 'store.lmdb');
const env = open({ path, overlappingSync: false });
const db = env.openDB<{ i: number; v: string }, number>({ name: 'events' });
const v = 'x'.repeat(1000);
for (let b = 0; b < 600; b++)
  await db.transaction(() => {
    for (let i = 0; i < 1000; i++) db.putSync(b * 1000 + i, { i, v });
  });
await env.close();
console.log(`store: ${(Number(execFileSync('stat', ['-c', '%s', path])) / 1e9).toFixed(2)} GB`);

const dropCaches = () => {
  execFileSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '3');
};
const reader = (prefix: string) =>
  spawnSync('bash', ['-c', `${prefix} exec "${process.execPath}" "${process.argv[1] ?? ''}" read "${path}"`], {
    encoding: 'utf8',
  });

dropCaches();
console.log('no limit:');
process.stdout.write(reader('').stdout);

const v1 = '/sys/fs/cgroup/memory';
const group = existsSync(v1) ? join(v1, `mapped-pages-${process.pid}`) : `/sys/fs/cgroup/mapped-pages-${process.pid}`;
mkdirSync(group);
try {
  writeFileSync(join(group, existsSync(v1) ? 'memory.limit_in_bytes' : 'memory.max'), String(limitMb * 1024 * 1024));
  dropCaches();
  console.log(`in a memory cgroup of ${limitMb} MiB:`);
  const run = reader(`echo $$ > ${group}/cgroup.procs;`);
  process.stdout.write(run.stdout);
  console.log(`  exit ${run.status ?? run.signal ?? '?'}${run.signal === 'SIGKILL' ? ' (killed: out of memory)' : ''}`);
  if (existsSync(join(group, 'memory.failcnt')))
    console.log(
      `  reclaims at the limit (memory.failcnt): ${readFileSync(join(group, 'memory.failcnt'), 'utf8').trim()}`,
    );
} finally {
  rmdirSync(group);
  rmSync(dir, { recursive: true, force: true });
}
