// Dependency-boundary check: runs dependency-cruiser over packages/*, then a self-test
// that drops one deliberately wrong import per rule into the tree and requires the check
// to fail on each. A rule that stops catching its probe fails the test command too.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin', 'depcruise');

const cruise = (targets) =>
  spawnSync(bin, [...targets, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
    cwd: root,
    encoding: 'utf8',
  });

const main = cruise(['packages']);
process.stdout.write(main.stdout);
process.stderr.write(main.stderr);
if (main.status !== 0) {
  console.error('boundary check: FAILED (see the violations above)');
  process.exit(1);
}

// [directory, import line, what it is, the rule that must report it]
const probes = [
  ['packages/domain/src', "import '../../application/src/index.js';", 'domain importing application', 'inner-layers-never-import-outer'],
  ['packages/domain/src', "import 'node:fs';", 'domain importing a Node built-in', 'domain-is-pure'],
  ['packages/application/src', "import 'node:crypto';", 'application importing a Node built-in', 'application-imports-only-domain'],
  ['packages/application/src', "import '../../adapter-memory/src/index.js';", 'application importing an adapter', 'no-import-of-an-adapter'],
  ['packages/adapter-memory/src', "import '../../server/src/main.js';", 'an adapter importing the server', 'nothing-imports-the-server'],
  ['packages/adapter-http-koa/src', "import '../../adapter-memory/src/index.js';", 'one adapter importing another', 'no-import-of-an-adapter'],
  ['packages/adapter-memory/src', "import '../../adapter-embedded/src/index.js';", 'the memory store importing the embedded store', 'no-import-of-an-adapter'],
  ['packages/adapter-embedded/src', "import '../../adapter-mongo/src/index.js';", 'the embedded store importing another adapter than memory', 'embedded-builds-only-on-memory'],
];
let missed = 0;
for (const [dir, line, what, rule] of probes) {
  const file = join(dir, '__boundary_probe__.ts');
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, file), `${line}\nexport {};\n`);
  try {
    const r = cruise([file]);
    if (r.status === 0 || !`${r.stdout}${r.stderr}`.includes(`error ${rule}:`)) {
      missed += 1;
      console.error(`boundary check self-test: NOT detected by rule ${rule}: ${what} (${file})`);
    }
  } finally {
    rmSync(join(root, file), { force: true });
  }
}
if (missed > 0) process.exit(1);
console.log(`boundary check: passed; self-test: all ${probes.length} deliberate wrong imports detected`);
