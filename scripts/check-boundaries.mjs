// Dependency-boundary check: runs dependency-cruiser over every package's sources and tests
// and over the benchmarks, then a self-test that drops deliberately wrong imports (one probe
// per rule) into the tree and requires the check to fail on each. A rule that stops catching
// its probe fails the test command too. Run it after the build (`tsc -b`): the benchmarks
// import the compiled packages. Then the naming rule of the core (core-names.mjs: no
// snake_case name in domain or application), with its own planted probe.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snakeCaseNames } from './core-names.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin', 'depcruise');

const cruise = (targets) =>
  spawnSync(bin, [...targets, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
    cwd: root,
    encoding: 'utf8',
  });

// Sources, tests and benchmarks, never dist or node_modules: the config excludes nothing, so
// that an import of a compiled file is judged like any other. The benchmarks' sources are
// benchmarks/src.
const targets = [
  ...readdirSync(join(root, 'packages')).flatMap((p) =>
    ['src', 'test', 'test-support'].map((d) => `packages/${p}/${d}`).filter((d) => existsSync(join(root, d))),
  ),
  'benchmarks/src',
];
const main = cruise(targets);
process.stdout.write(main.stdout);
process.stderr.write(main.stderr);
if (main.status !== 0) {
  console.error('boundary check: FAILED (see the violations above)');
  process.exit(1);
}

const probe = '__boundary_probe__';
const single = (dir, line) => [[`${dir}/${probe}.ts`, line]];
// What each probe is, the rule that must report it, and its files ([path, import line]);
// the check runs on the first file and follows its imports.
const probes = [
  [
    'domain importing application',
    'inner-layers-never-import-outer',
    single('packages/domain/src', "import '../../application/src/index.js';"),
  ],
  ['domain importing a Node built-in', 'domain-is-pure', single('packages/domain/src', "import 'node:fs';")],
  [
    'application importing a Node built-in',
    'application-imports-only-domain',
    single('packages/application/src', "import 'node:crypto';"),
  ],
  [
    'application importing an adapter',
    'no-import-of-an-adapter',
    single('packages/application/src', "import '../../adapter-memory/src/index.js';"),
  ],
  [
    'an adapter importing the server',
    'nothing-imports-the-server',
    single('packages/adapter-memory/src', "import '../../server/src/main.js';"),
  ],
  [
    'one adapter importing another',
    'no-import-of-an-adapter',
    single('packages/adapter-http-koa/src', "import '../../adapter-memory/src/index.js';"),
  ],
  [
    'the memory store importing the embedded store',
    'no-import-of-an-adapter',
    single('packages/adapter-memory/src', "import '../../adapter-embedded/src/index.js';"),
  ],
  [
    'the embedded store importing another adapter than memory',
    'embedded-builds-only-on-memory',
    single('packages/adapter-embedded/src', "import '../../adapter-mongo/src/index.js';"),
  ],
  [
    'the webhook sender importing the HTTP adapter',
    'no-import-of-an-adapter',
    single('packages/adapter-webhook-sender/src', "import '../../adapter-http-koa/src/index.js';"),
  ],
  [
    "one adapter importing another's compiled file",
    'no-import-of-an-adapter',
    single('packages/adapter-http-koa/src', "import '../../adapter-memory/dist/src/index.js';"),
  ],
  [
    'a benchmark importing a compiled file inside a package',
    'benchmarks-use-public-entry-points',
    single('benchmarks/src', "import '../../packages/server/dist/src/config.js';"),
  ],
  [
    'a benchmark importing a source file inside a package',
    'benchmarks-use-public-entry-points',
    single('benchmarks/src', "import '../../packages/adapter-memory/src/journal.js';"),
  ],
  [
    'a package importing a benchmark',
    'nothing-imports-the-benchmarks',
    single('packages/server/src', "import '../../../benchmarks/src/support/seeded.js';"),
  ],
  [
    'two modules importing each other (type-only)',
    'no-cycle',
    [
      [`packages/domain/src/${probe}.ts`, `import type {} from './query/${probe}.js';`],
      [`packages/domain/src/query/${probe}.ts`, `import type {} from '../${probe}.js';`],
    ],
  ],
];
let missed = 0;
for (const [what, rule, files] of probes) {
  try {
    for (const [file, line] of files) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), `${line}\nexport {};\n`);
    }
    const r = cruise([files[0][0]]);
    if (r.status === 0 || !`${r.stdout}${r.stderr}`.includes(`error ${rule}:`)) {
      missed += 1;
      console.error(`boundary check self-test: NOT detected by rule ${rule}: ${what} (${files[0][0]})`);
    }
  } finally {
    for (const [file] of files) rmSync(join(root, file), { force: true });
  }
}
if (missed > 0) process.exit(1);

const names = snakeCaseNames(root);
if (names.length > 0) {
  console.error(
    `${names.join('\n')}\nboundary check: FAILED: the core names things in snake_case (the API's names belong to packages/adapter-http-koa/src/wire-names.ts)`,
  );
  process.exit(1);
}
// One planted file with one snake_case name of each kind; each line must be reported.
const nameProbe = `packages/domain/src/${probe}.ts`;
const nameProbeLines = [
  "import { fieldError } from './errors.js';",
  'export const customer_id = 1;',
  "export const quoted = { 'group_ids': [] };",
  "export type Keyed = Record<'created_at', number>;",
  "export const refused = fieldError('expires_at', 'invalid_value', 'must be later');",
  "export const sortable = ['id', 'closed_at'] as const;",
];
let namesFound;
try {
  writeFileSync(join(root, nameProbe), `${nameProbeLines.join('\n')}\n`);
  namesFound = snakeCaseNames(root).filter((f) => f.startsWith(`${nameProbe}:`));
} finally {
  rmSync(join(root, nameProbe), { force: true });
}
const namesMissed = nameProbeLines
  .map((line, i) => [line, i + 1])
  .filter(([, n]) => n > 1 && !namesFound.some((f) => f.startsWith(`${nameProbe}:${n}:`)));
for (const [line] of namesMissed) console.error(`boundary check self-test: snake_case name NOT detected: ${line}`);
if (namesMissed.length > 0) process.exit(1);
console.log(
  `boundary check: passed; self-test: all ${probes.length} deliberate wrong imports detected, and the ${nameProbeLines.length - 1} snake_case names planted in the core`,
);
