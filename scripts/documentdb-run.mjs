// Runs every suite that MONGO_URL runs (scripts/mongo-suites.mjs: the contract suites, every
// real-mongo*.test.js, the change feed's included, and the fuzz) against DocumentDB (MIT: the
// PostgreSQL extensions pg_documentdb_core and pg_documentdb, and the gateway pg_documentdb_gw
// that speaks the MongoDB wire protocol), for a machine where no mongod can run. It is NOT
// MongoDB, and a pass here is not a MongoDB pass; docs/mongodb.md keeps its divergences.
//
//   npx -y pnpm@10 exec tsc -b
//   DOCUMENTDB_GIT=/path/to/documentdb LIBBSON_GIT=/path/to/mongo-c-driver \
//   PGVECTOR_GIT=/path/to/pgvector PG_CRON_GIT=/path/to/pg_cron \
//     node scripts/documentdb-run.mjs [extra mocha args, e.g. a suite's file or --grep]
//
// Steps (scripts/documentdb-build.mjs: each skipped when already done, each saying so):
// Debian packages, libbson, intelmathlib.pc, pgvector, pg_cron, the two extensions, the
// gateway. Then, in a temporary directory removed at the end: a PostgreSQL 15 cluster on a
// free loopback port (run as the `postgres` user when this runs as root: initdb refuses root),
// `CREATE EXTENSION documentdb CASCADE`, a login role, a self-signed certificate, the gateway
// on another free loopback port; the suites with MONGO_URL pointing at it; then both stopped.
// A step that cannot work stops the run with one line naming the step and why (exit status 2).
//
// The tests that meet a listed divergence (docs/mongodb.md, "DocumentDB": D1, D2, D4) do not run
// there, each saying which; DOCUMENTDB_DIVERGENCES=run runs them too, to see whether they
// still fail (MONGO_URL_ENGINE=documentdb, set here, names the engine to the suites).
// DOCUMENTDB_BUILD_DIR (default ../ddb-build beside this repository) holds the builds;
// DOCUMENTDB_KEEP=true leaves the cluster's directory (and its logs) in place at the end.
// With the extra argument --only-start it starts DocumentDB, prints MONGO_URL and waits
// (Ctrl-C stops everything), for running a suite by hand.
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDocumentDb, pgBin, StepFailed } from './documentdb-build.mjs';
import { freePort, waitForPort } from './loopback.mjs';
import { mongoUrlSuites } from './mongo-suites.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = process.env.DOCUMENTDB_BUILD_DIR ?? join(root, '..', 'ddb-build');
const args = process.argv.slice(2);
const onlyStart = args.includes('--only-start');
const say = (s) => console.log(`[documentdb] ${s}`);

const stopAt = (e) => {
  console.error(`\n[documentdb] the run stopped at a step that did not work: ${e.message}`);
  process.exit(2);
};

let built;
try {
  built = buildDocumentDb(build);
} catch (e) {
  if (e instanceof StepFailed) stopAt(e);
  throw e;
}

// initdb and postgres refuse to run as root: as root, they run as the `postgres` user
// (created by the Debian package), owning the temporary directory.
const asRoot = process.getuid?.() === 0;
const pgUser = () => {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new StepFailed('cluster: there is no `postgres` user to run PostgreSQL as (run as non-root)');
  return { uid: Number(r.stdout), gid: Number(g.stdout) };
};
const asPostgres = (cmd, argv) => (asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...argv]] : [cmd, argv]);
const runStep = (step, cmd, argv, options = {}) => {
  const [c, a] = asPostgres(cmd, argv);
  const r = spawnSync(c, a, { encoding: 'utf8', ...options });
  if (r.status !== 0)
    throw new StepFailed(
      `${step}: \`${cmd} ${argv.join(' ')}\` exited with ${r.status ?? r.signal}: ${r.stderr || r.stdout}`,
    );
  return r.stdout;
};

const dir = mkdtempSync(join(tmpdir(), 'documentdb-'));
const data = join(dir, 'data');
const user = 'suites';
const password = `pw${Math.random().toString(36).slice(2)}`;
const started = [];
let pgStarted = false;
let status = 1;
const stopAll = () => {
  for (const p of started) p.kill('SIGTERM');
  if (pgStarted) spawnSync(...asPostgres(join(pgBin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']));
  if (process.env.DOCUMENTDB_KEEP === 'true') say(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  stopAll();
  process.exit(130);
});

try {
  if (asRoot) {
    const { uid, gid } = pgUser();
    chownSync(dir, uid, gid);
  }
  const [pgPort, gatewayPort] = [await freePort(), await freePort()];
  say(`cluster: initdb in ${data}`);
  runStep('cluster initdb', join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      `port = ${pgPort}`,
      `unix_socket_directories = '${dir}'`,
      "shared_preload_libraries = 'pg_cron, pg_documentdb_core, pg_documentdb'",
      "cron.database_name = 'postgres'",
      'documentdb.enableBackgroundWorker = true',
      'documentdb.enableBackgroundWorkerJobs = true',
      'max_connections = 300',
      'ssl = off',
      '',
    ].join('\n'),
  );
  say(`cluster: PostgreSQL ${pgBin} on 127.0.0.1:${pgPort}`);
  runStep('cluster start', join(pgBin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'postgres.log'), '-w', 'start']);
  pgStarted = true;
  const psql = (step, sql) =>
    runStep(
      step,
      join(pgBin, 'psql'),
      ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', '-d', 'postgres'].concat([
        '-v',
        'ON_ERROR_STOP=1',
        '-qAt',
        '-c',
        sql,
      ]),
    );
  psql('CREATE EXTENSION documentdb CASCADE', 'CREATE EXTENSION IF NOT EXISTS documentdb CASCADE;');
  const version = psql('extension version', "SELECT extversion FROM pg_extension WHERE extname = 'documentdb';").trim();
  psql(
    'client role',
    `CREATE ROLE ${user} WITH LOGIN INHERIT PASSWORD '${password}' IN ROLE documentdb_admin_role; ALTER ROLE ${user} CREATEROLE;`,
  );

  say('gateway: a self-signed certificate and its configuration');
  const [cert, key] = [join(dir, 'gateway.crt'), join(dir, 'gateway.key')];
  const ssl = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost'].concat([
      '-days',
      '2',
      '-keyout',
      key,
      '-out',
      cert,
    ]),
    { encoding: 'utf8' },
  );
  if (ssl.status !== 0) throw new StepFailed(`gateway certificate: openssl failed: ${ssl.stderr}`);
  const config = join(dir, 'gateway.json');
  writeFileSync(
    config,
    JSON.stringify({
      NodeHostName: 'localhost',
      BlockedRolePrefixes: [],
      PostgresSystemUser: 'postgres',
      PostgresHostName: '127.0.0.1',
      PostgresPort: pgPort,
      GatewayListenPort: gatewayPort,
      EnforceSslTcp: false,
      UseLocalHost: true,
      CertificateOptions: { CertType: 'PemFile', FilePath: cert, KeyFilePath: key },
    }),
  );
  const gatewayLog = join(dir, 'gateway.log');
  // Its output goes straight to a file: the suites run synchronously (spawnSync), and a pipe
  // nobody reads would fill and stall the gateway.
  const logFd = openSync(gatewayLog, 'a');
  const gateway = spawn(built.gateway, [config], { stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  started.push(gateway);
  try {
    await waitForPort(gatewayPort, 60_000, 'the DocumentDB gateway');
  } catch (e) {
    throw new StepFailed(`gateway start: ${e.message}; its log:\n${readFileSync(gatewayLog, 'utf8').slice(-2000)}`);
  }

  const url = `mongodb://${user}:${password}@127.0.0.1:${gatewayPort}/?directConnection=true&authMechanism=SCRAM-SHA-256`;
  console.log(
    `\nDocumentDB ${version} (NOT MongoDB; commit ${built.commit.slice(0, 10)}) on 127.0.0.1:${gatewayPort}, PostgreSQL on ${pgPort}, in ${dir}: the results below are DocumentDB's, with its divergences (docs/mongodb.md).\n`,
  );
  if (onlyStart) {
    console.log(`MONGO_URL='${url}'\n(Ctrl-C stops DocumentDB)`);
    await new Promise(() => {});
  }
  const suites = mongoUrlSuites(root);
  console.log(`Suites: ${suites.join(', ')}\n`);
  const run = spawnSync(
    join(root, 'node_modules', '.bin', 'mocha'),
    ['--no-config', '--timeout', '300000', '--reporter', 'spec', '--exit', ...suites, ...args],
    // The scale suite at 20,000 tickets unless SCALE_TICKETS says otherwise: inserts with the
    // 40 ticket indexes are slow there (docs/mongodb.md, D7), and 100,000 took most of its time limit.
    {
      cwd: root,
      stdio: 'inherit',
      env: { SCALE_TICKETS: '20000', ...process.env, MONGO_URL: url, MONGO_URL_ENGINE: 'documentdb' },
    },
  );
  status = run.status ?? 1;
} catch (e) {
  stopAll();
  if (e instanceof StepFailed) stopAt(e);
  throw e;
}
stopAll();
console.log(`\nDocumentDB run finished with status ${status} (DocumentDB is not MongoDB: see docs/mongodb.md).`);
process.exit(status);
