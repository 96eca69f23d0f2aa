// Runs the MongoDB adapter's real-driver suites (packages/adapter-mongo/dist/test/real-mongo*
// and contract.test.js) against FerretDB, a MongoDB wire-protocol server over SQLite, for a
// machine where no mongod can run. It is NOT MongoDB, and a pass here is not a MongoDB pass:
// FerretDB ignores read and write concerns (no majority, no wtimeout), has no replication
// (the replica-set name it reports is a label: no failover, no step-down, no retryable-write
// guarantees), no collation, lacks some update forms, and its explain output differs from
// MongoDB's (its plans have no SORT/COLLSCAN stages to look for). Expect failures where those
// matter; read them as FerretDB's divergences, not as the adapter's verdict.
//
//   npx -y pnpm@10 exec tsc -b
//   FERRETDB_BIN=/tmp/fdb/ferretdb node scripts/ferretdb-run.mjs [extra mocha args]
//
// Building it: `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` makes a binary
// that panics at start ("Invalid build/version/version.txt file content"): that file is
// generated in FerretDB's own repository and is not in the module. Build from a copy with it:
//
//   src=$(go mod download -json github.com/FerretDB/FerretDB@v1.24.2 | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
//   cp -r "$src" /tmp/fdb-src && chmod -R u+w /tmp/fdb-src
//   echo v1.24.2 > /tmp/fdb-src/build/version/version.txt
//   (cd /tmp/fdb-src && go build -o /tmp/fdb/ferretdb ./cmd/ferretdb)
//
// It starts FerretDB on a free loopback port with a fresh SQLite directory (removed at the
// end), sets MONGO_URL for the suites, and stops FerretDB when they are done.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.env.FERRETDB_BIN ?? join(homedir(), 'go', 'bin', 'ferretdb');

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

const waitForPort = async (port, ms) => {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const c = connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`FerretDB did not listen on ${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

const [port, debugPort] = [await freePort(), await freePort()];
const data = mkdtempSync(join(tmpdir(), 'ferretdb-'));
const ferret = spawn(
  bin,
  [
    '--handler=sqlite',
    `--sqlite-url=file:${data}/`,
    `--state-dir=${data}`,
    `--listen-addr=127.0.0.1:${port}`,
    `--debug-addr=127.0.0.1:${debugPort}`,
    '--repl-set-name=rs0',
    '--telemetry=disable',
    '--log-level=ERROR',
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
let status = 1;
try {
  await waitForPort(port, 30_000);
  console.log(`\nFerretDB (NOT MongoDB) on 127.0.0.1:${port}, SQLite in ${data}: the results below are FerretDB's, with its divergences.\n`);
  const suites = ['real-mongo.test.js', 'real-mongo-processes.test.js', 'real-mongo-failover.test.js', 'real-mongo-scale.test.js', 'contract.test.js'].map((f) =>
    join('packages', 'adapter-mongo', 'dist', 'test', f),
  );
  const run = spawnSync(
    join(root, 'node_modules', '.bin', 'mocha'),
    ['--no-config', '--timeout', '120000', '--reporter', 'spec', '--exit', ...suites, ...process.argv.slice(2)],
    { cwd: root, stdio: 'inherit', env: { ...process.env, MONGO_URL: `mongodb://127.0.0.1:${port}/?replicaSet=rs0&directConnection=true`, MONGO_WITHOUT_TTL: 'true' } },
  );
  status = run.status ?? 1;
} finally {
  ferret.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
}
console.log(`\nFerretDB run finished with status ${status} (FerretDB is not MongoDB: see the divergences at the top of scripts/ferretdb-run.mjs).`);
process.exit(status);
