// What a package's mutation results depend on that Stryker's incremental mode does not diff.
//
// In incremental mode Stryker re-tests a mutant when its own code changed, when a test that
// killed it changed or is gone, or when a new test covers a mutant that lived. It diffs only the
// files it mutates and the test files it runs. A test helper (test-support/, test/support/), the
// other packages a package's tests load (the domain, for the application), the npm packages they
// import, Node, Stryker and the configuration can change what a test detects without any of
// those diffs showing it. These are the package's "inputs": scripts/mutation.mjs records their
// hashes in the incremental file and re-tests every mutant (--force) when one differs, so that a
// stale file never keeps a result that may no longer hold.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const posix = (p) => p.split(sep).join('/');

/** A glob of Stryker's configuration (`*`, `**`) as a regular expression over a relative path. */
export const globToRegExp = (glob) =>
  new RegExp(
    `^${glob
      .split('**/')
      .map((part) =>
        part
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('(?:.*/)?')}$`,
  );

/**
 * The files and folders the configuration's ignorePatterns let into Stryker's sandbox: each
 * `!/path` that no later `/path/*` narrows again (`/packages/domain/*` makes `!/packages/domain`
 * a way through to what follows, not a whole folder).
 */
export const sandboxRoots = (conf) => {
  const patterns = conf.ignorePatterns ?? [];
  const through = new Set(patterns.filter((p) => p.startsWith('/') && p.endsWith('/*')).map((p) => p.slice(1, -2)));
  return patterns
    .filter((p) => p.startsWith('!/'))
    .map((p) => p.slice(2))
    .filter((p) => !through.has(p));
};

const walk = (root, dir) =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(root, join(dir, d.name)) : [posix(join(dir, d.name))],
  );

/** The parts of a package.json that decide how its code loads (its scripts and version do not). */
const loadingParts = (text) => {
  const { type, exports, imports, main } = JSON.parse(text);
  return JSON.stringify({ type, exports, imports, main });
};

/** The module specifiers a JavaScript file imports (static, dynamic and re-exports). */
const specifiers = (text) =>
  [
    ...text.matchAll(/(?:^|[\s;}])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(?\s*['"]([^'"]+)['"]/g),
  ].map((m) => m[1] ?? m[2]);

const packageName = (spec) =>
  (spec.startsWith('@') ? spec.split('/').slice(0, 2) : spec.split('/').slice(0, 1)).join('/');

/** The version of the npm package `name` as seen from `fromFile` (null: not found). */
const versionOf = (fromFile, name) => {
  for (let dir = dirname(fromFile); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')).version ?? null;
    if (dirname(dir) === dir) return null;
  }
};

/**
 * The inputs of a package's mutation run: { files: {path: hash}, packages: {name: version},
 * node, stryker, configuration }. The files are those the mutated files and the test files load,
 * directly or not (the workspace's packages included), other than themselves, and the loading
 * parts of the package.json files in the sandbox. `root` is the repository, `conf` the parsed
 * configuration.
 */
export const mutationInputs = (root, conf) => {
  const mutated = (conf.mutate ?? []).filter((g) => !g.startsWith('!')).map(globToRegExp);
  const specs = [conf.mochaOptions?.spec ?? []].flat().map(globToRegExp);
  const diffed = (path) => mutated.some((r) => r.test(path)) || specs.some((r) => r.test(path));
  const files = {};
  const packages = {};
  const queue = [];
  for (const entry of sandboxRoots(conf)) {
    const full = join(root, entry);
    if (!existsSync(full)) continue;
    for (const path of statSync(full).isDirectory() ? walk(root, entry) : [posix(entry)]) {
      if (path.endsWith('package.json')) files[path] = hash(loadingParts(readFileSync(join(root, path), 'utf8')));
      else if (/\.(m|c)?js$/.test(path) && diffed(path)) queue.push(path);
    }
  }
  const seen = new Set(queue);
  while (queue.length > 0) {
    const path = queue.pop();
    const full = join(root, path);
    for (const spec of specifiers(readFileSync(full, 'utf8'))) {
      if (spec.startsWith('node:')) continue;
      let target;
      try {
        target = realpathSync(spec.startsWith('.') ? join(dirname(full), spec) : createRequire(full).resolve(spec));
      } catch {
        continue; // a built-in module, or one that does not resolve (the test run itself would fail then)
      }
      const rel = posix(relative(root, target));
      if (rel.startsWith('..') || rel.split('/').includes('node_modules')) {
        const name = packageName(spec);
        packages[name] ??= versionOf(full, name);
      } else if (!seen.has(rel)) {
        seen.add(rel);
        queue.push(rel);
        if (!diffed(rel)) files[rel] = hash(readFileSync(target, 'utf8'));
      }
    }
  }
  const require = createRequire(join(root, 'package.json'));
  const stryker = ['@stryker-mutator/core', '@stryker-mutator/mocha-runner', 'mocha'].map(
    (name) => `${name}@${JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version}`,
  );
  // What changes how mutants are made and run; the thresholds, reporters and concurrency do not.
  const { thresholds, reporters, jsonReporter, clearTextReporter, concurrency, $schema, ...rest } = conf;
  void [thresholds, reporters, jsonReporter, clearTextReporter, concurrency, $schema];
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return {
    files: sorted(files),
    packages: sorted(packages),
    node: process.versions.node.split('.')[0],
    stryker: stryker.join(' '),
    configuration: hash(JSON.stringify(rest)),
  };
};

/** What differs between two recorded inputs, as lines a reader understands ([] when none). */
export const changedInputs = (before, now) => {
  if (before === undefined) return ['no inputs were recorded with this file'];
  const out = [];
  for (const key of ['node', 'stryker', 'configuration'])
    if (before[key] !== now[key]) out.push(`${key}: ${String(before[key])} -> ${String(now[key])}`);
  for (const kind of ['files', 'packages']) {
    const a = before[kind] ?? {};
    const b = now[kind];
    for (const name of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (a[name] !== b[name])
        out.push(`${name}: ${a[name] === undefined ? 'added' : b[name] === undefined ? 'removed' : 'changed'}`);
  }
  return out;
};
