// Runs every suite that MONGO_URL runs (packages/adapter-mongo/dist/test: contract.test.js and
// every real-mongo*.test.js, the change feed's included; packages/server/dist/test/fuzz/
// fuzz-mongo.test.js) against FerretDB, a MongoDB wire-protocol server over SQLite, for a
// machine where no mongod can run. It is NOT MongoDB, and a pass here is not a MongoDB pass.
// Its divergences, as met by these suites (FerretDB 1.24.2; docs/mongodb.md keeps the list):
//   - no transactions (startTransaction, autocommit: false, commitTransaction are refused), so
//     every write of a ticket, message, user or group fails: each records its change-feed
//     event in a transaction;
//   - findAndModify without `fields` (a projection on findOneAndUpdate is refused);
//   - $inc is not atomic under concurrency: 50 concurrent findOneAndUpdate {$inc: {seq: 1}} on
//     one document ended at 9 (so shared id counters and rate-limit counts lose increments);
//   - concurrent createIndexes on a fresh database can panic the server (the store now creates
//     its collections one at a time at start, before their indexes);
//   - no TTL indexes (MONGO_WITHOUT_TTL=true below leaves them out), no collation, some update
//     forms missing, read and write concerns ignored (no majority, no wtimeout), no replication
//     (the replica-set name it reports is a label: no failover, no step-down, no retryable-write
//     guarantees), and an explain output without MongoDB's SORT/COLLSCAN stages.
// Expect failures where those matter; read them as FerretDB's divergences, not as the
// adapter's verdict.
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
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitForPort } from './loopback.mjs';
import { mongoUrlSuites } from './mongo-suites.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.env.FERRETDB_BIN ?? join(homedir(), 'go', 'bin', 'ferretdb');

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
  await waitForPort(port, 30_000, 'FerretDB');
  console.log(
    `\nFerretDB (NOT MongoDB) on 127.0.0.1:${port}, SQLite in ${data}: the results below are FerretDB's, with its divergences.\n`,
  );
  // Every suite MONGO_URL runs (mongo-suites.mjs), the change feed's and the fuzz included.
  const suites = mongoUrlSuites(root);
  console.log(`Suites: ${suites.join(', ')}\n`);
  const run = spawnSync(
    join(root, 'node_modules', '.bin', 'mocha'),
    ['--no-config', '--timeout', '120000', '--reporter', 'spec', '--exit', ...suites, ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        MONGO_URL: `mongodb://127.0.0.1:${port}/?replicaSet=rs0&directConnection=true`,
        MONGO_WITHOUT_TTL: 'true',
      },
    },
  );
  status = run.status ?? 1;
} finally {
  ferret.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
}
console.log(
  `\nFerretDB run finished with status ${status} (FerretDB is not MongoDB: see the divergences at the top of scripts/ferretdb-run.mjs).`,
);
process.exit(status);
