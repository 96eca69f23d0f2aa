// Builds DocumentDB (pg_documentdb_core, pg_documentdb and the gateway pg_documentdb_gw) and
// what it needs, from source snapshots given by path, for scripts/documentdb-run.mjs. None of
// that source is in this repository: each snapshot is a git directory (a bare repository or a
// clone) named by an environment variable, and everything built goes to DOCUMENTDB_BUILD_DIR
// (default: ddb-build beside this repository, outside it). A step already done is skipped
// (each leaves a stamp naming the commit it built). Every step says what it does; a step that
// cannot work says which and why, and the run stops there.
//
//   DOCUMENTDB_GIT   microsoft/documentdb (ref DOCUMENTDB_REF, default main; 0.108-0 was run)
//   LIBBSON_GIT      mongodb/mongo-c-driver (ref LIBBSON_REF, default 1.28.0: Debian's 1.23 is
//                    too old, BSON_SUBTYPE_SENSITIVE undeclared)
//   PGVECTOR_GIT     pgvector/pgvector (ref PGVECTOR_REF, default v0.8.0; no Debian package for PG 15)
//   PG_CRON_GIT      citusdata/pg_cron (ref PG_CRON_REF, default v1.6.3; Debian's 1.4.2 refuses
//                    the extension's '2 seconds' schedule, so CREATE EXTENSION fails)
//
// The default refs are the ones DocumentDB's own scripts/setup_versions.sh pins.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const pgVersion = '15';
export const pgBin = `/usr/lib/postgresql/${pgVersion}/bin`;
const pgConfig = join(pgBin, 'pg_config');

/** The Debian packages (Debian 12): PostgreSQL with its headers, the extensions DocumentDB requires, build tools. */
export const debianPackages = [
  `postgresql-${pgVersion}`,
  `postgresql-server-dev-${pgVersion}`,
  `postgresql-${pgVersion}-postgis-3`,
  `postgresql-${pgVersion}-rum`,
  'libintelrdfpmath-dev',
  'libpcre2-dev',
  'libkrb5-dev', // the server headers include gssapi/gssapi.h
  'libssl-dev',
  'pkg-config',
  'cmake',
  'openssl',
];

/** A step that cannot work here: its message says which and why. */
export class StepFailed extends Error {}

const say = (s) => console.log(`[documentdb] ${s}`);

const run = (cmd, args, options = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.error) throw new StepFailed(`${options.step ?? cmd}: ${cmd} could not run (${r.error.message})`);
  if (r.status !== 0)
    throw new StepFailed(`${options.step ?? cmd}: \`${cmd} ${args.join(' ')}\` exited with ${r.status ?? r.signal}`);
};

const output = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};

/** The git directory of a snapshot path (a bare repository, a .git directory, or a clone). */
const gitDir = (path) => (existsSync(join(path, '.git')) ? join(path, '.git') : path);

const sourceOf = (variable, ref) => {
  const path = process.env[variable];
  if (path === undefined || path === '')
    throw new StepFailed(
      `sources: ${variable} is not set (the path of its source snapshot: see the top of this script)`,
    );
  const commit = output('git', ['--git-dir', gitDir(path), 'rev-parse', `${ref}^{commit}`]);
  if (commit === null) throw new StepFailed(`sources: ${variable}=${path} has no ref ${ref}`);
  return { git: gitDir(path), ref, commit };
};

/** The snapshots this build reads, resolved to commits (DOCUMENTDB_REF etc. override the refs). */
export const sources = () => ({
  documentdb: sourceOf('DOCUMENTDB_GIT', process.env.DOCUMENTDB_REF ?? 'main'),
  libbson: sourceOf('LIBBSON_GIT', process.env.LIBBSON_REF ?? '1.28.0'),
  pgvector: sourceOf('PGVECTOR_GIT', process.env.PGVECTOR_REF ?? 'v0.8.0'),
  pgCron: sourceOf('PG_CRON_GIT', process.env.PG_CRON_REF ?? 'v1.6.3'),
});

/**
 * Extracts `source` into build/name (git archive, so that no checkout is needed) unless
 * build/name.commit says it is there already (the gateway's target/ stays), leaving out
 * `without` (the mongo-c-driver snapshot lacks some test blobs: a plain checkout fails on them).
 */
const extract = (build, name, source, without = []) => {
  const dir = join(build, name);
  const stamp = join(build, `${name}.commit`);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === source.commit && existsSync(dir)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const excludes = without.map((p) => `':(exclude)${p}'`).join(' ');
  run('sh', ['-c', `git --git-dir='${source.git}' archive ${source.commit} -- . ${excludes} | tar -x -C '${dir}'`], {
    step: `extract ${name}`,
  });
  writeFileSync(stamp, `${source.commit}\n`);
  return dir;
};

/** Runs `body` unless build/name.done names the same commit; then writes that stamp. */
const step = (build, name, source, isInstalled, body) => {
  const stamp = join(build, `${name}.done`);
  const done = existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === source.commit;
  if (done && isInstalled()) {
    say(`${name}: already built from ${source.commit.slice(0, 10)} (${source.ref}), skipped`);
    return;
  }
  say(`${name}: building ${source.ref} (${source.commit.slice(0, 10)})`);
  body();
  if (!isInstalled()) throw new StepFailed(`${name}: built and installed, but what it installs is not there`);
  writeFileSync(stamp, `${source.commit}\n`);
};

const nice = (args) => ['nice', ...args];
const make = (dir, args = [], step = dir) => {
  const [cmd, ...rest] = nice(['make', '-j2', '-C', dir, `PG_CONFIG=${pgConfig}`, ...args]);
  run(cmd, rest, { step, env: { ...process.env, PKG_CONFIG_PATH: '/usr/local/lib/pkgconfig' } });
};

const installPackages = () => {
  const missing = debianPackages.filter(
    (p) => output('dpkg-query', ['-W', '-f=${Status}', p]) !== 'install ok installed',
  );
  if (missing.length === 0) return say('Debian packages: all installed, skipped');
  if (process.getuid?.() !== 0)
    throw new StepFailed(`Debian packages: ${missing.join(' ')} missing, and installing them needs root`);
  say(`Debian packages: installing ${missing.join(' ')}`);
  run('apt-get', ['update', '-qq'], { step: 'apt-get update' });
  run('apt-get', ['install', '-y', '-qq', ...missing], {
    step: 'apt-get install',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
};

const extensionDir = () => join(output(pgConfig, ['--sharedir']) ?? '', 'extension');
const controlVersion = (name) => {
  const file = join(extensionDir(), `${name}.control`);
  return existsSync(file) ? (/default_version\s*=\s*'([^']+)'/.exec(readFileSync(file, 'utf8'))?.[1] ?? null) : null;
};

// Debian ships Intel's decimal library as libbidgcc000.a (the 000 variant: CALL_BY_REF=0,
// GLOBAL_RND=0, GLOBAL_FLAGS=0, the flags DocumentDB's own script builds with); the Makefiles
// ask pkg-config for intelmathlib.
const intelMathPc = '/usr/local/lib/pkgconfig/intelmathlib.pc';
const writeIntelMathPc = () => {
  const lib = '/usr/lib/x86_64-linux-gnu/libbidgcc000.a';
  if (!existsSync(lib)) throw new StepFailed(`intelmathlib.pc: ${lib} is missing (package libintelrdfpmath-dev)`);
  mkdirSync('/usr/local/lib/pkgconfig', { recursive: true });
  writeFileSync(
    intelMathPc,
    `Name: intelmathlib\nDescription: Intel decimal floating-point math library (Debian libintelrdfpmath-dev)\nVersion: 2.0\nCflags: -I/usr/include\nLibs: ${lib}\n`,
  );
};

/**
 * Every build step in order; answers the gateway binary. Throws StepFailed naming the step.
 * The C builds run with nice and -j2 at most; the gateway with cargo -j2.
 */
export const buildDocumentDb = (build) => {
  mkdirSync(build, { recursive: true });
  installPackages();
  const src = sources();
  if (output('cargo', ['--version']) === null)
    throw new StepFailed('gateway: cargo is not on PATH (the gateway is Rust; install a Rust toolchain)');

  step(
    build,
    'libbson',
    src.libbson,
    () => existsSync('/usr/local/lib/pkgconfig/libbson-static-1.0.pc'),
    () => {
      const dir = extract(build, 'libbson', src.libbson, ['src/libbson/tests/binary', 'src/libmongoc/tests']);
      const out = join(dir, '_build');
      mkdirSync(out, { recursive: true });
      const version = src.libbson.ref.replace(/^v/, '');
      run(
        'cmake',
        ['-S', dir, '-B', out, '-DENABLE_MONGOC=OFF', '-DENABLE_STATIC=ON', '-DENABLE_TESTS=OFF']
          .concat(['-DENABLE_EXAMPLES=OFF', '-DCMAKE_C_FLAGS=-fPIC', `-DBUILD_VERSION=${version}`])
          .concat(['-DCMAKE_INSTALL_PREFIX=/usr/local']),
        { step: 'libbson cmake' },
      );
      run('nice', ['make', '-j2', '-C', out], { step: 'libbson make' });
      run('make', ['-C', out, 'install'], { step: 'libbson install' });
    },
  );
  if (!existsSync(intelMathPc)) {
    say('intelmathlib.pc: writing it (libbidgcc000.a)');
    writeIntelMathPc();
  }
  step(
    build,
    'pgvector',
    src.pgvector,
    () => controlVersion('vector') !== null,
    () => {
      const dir = extract(build, 'pgvector', src.pgvector);
      make(dir, [], 'pgvector make');
      make(dir, ['install'], 'pgvector install');
    },
  );
  step(
    build,
    'pg_cron',
    src.pgCron,
    () => (controlVersion('pg_cron') ?? '0').localeCompare('1.5', undefined, { numeric: true }) >= 0,
    () => {
      const dir = extract(build, 'pg_cron', src.pgCron);
      make(dir, [], 'pg_cron make');
      make(dir, ['install'], 'pg_cron install');
    },
  );
  const documentdbDir = join(build, 'documentdb');
  step(
    build,
    'documentdb',
    src.documentdb,
    () => controlVersion('documentdb') !== null && controlVersion('documentdb_core') !== null,
    () => {
      const dir = extract(build, 'documentdb', src.documentdb);
      for (const ext of ['pg_documentdb_core', 'pg_documentdb']) {
        make(join(dir, ext), [], `${ext} make`);
        make(join(dir, ext), ['install'], `${ext} install`);
      }
    },
  );
  const gatewayDir = join(documentdbDir, 'pg_documentdb_gw');
  const gateway = join(gatewayDir, 'target', 'release', 'documentdb_gateway');
  step(
    build,
    'gateway',
    src.documentdb,
    () => existsSync(gateway),
    () => {
      extract(build, 'documentdb', src.documentdb);
      run('nice', ['cargo', 'build', '--release', '-j2'], { cwd: gatewayDir, step: 'gateway cargo build' });
    },
  );
  return { gateway, commit: src.documentdb.commit, version: controlVersion('documentdb') };
};
