// Mutation testing with Stryker, incrementally, with its gates (docs/testing.md, "Mutation testing").
//
//   node scripts/mutation.mjs [--full] [--ci] [package ...]     (packages: domain application)
//
// Each package runs `stryker run stryker/<package>.conf.json --incremental` against its recorded
// run, stryker/incremental/<package>.json (committed): only the mutants whose code changed, whose
// killing test changed or is gone, or that a new test covers are tested again; the others keep
// their recorded result. Every mutant is tested again (--force) with --full, or when an input
// Stryker does not diff has changed since the recorded run (see mutation-inputs.mjs). The run is
// then recorded in that file (with its inputs) and the table of docs/testing.md is rewritten.
//
// Gates (the exit code): the package's score under its configuration's `thresholds.break`, or a
// file's under the package's file floor below, fails the run. New files are mutants with no
// recorded result, so they are tested and gated like the rest.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedInputs, globToRegExp, mutationInputs, sandboxRoots } from './mutation-inputs.mjs';
import { recordedFile, scores, writeTable } from './mutation-table.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The lowest score any one file of the package may have (null: only the package's break applies). */
const fileFloor = { domain: 90, application: null };

const args = process.argv.slice(2);
const full = args.includes('--full');
const ci = args.includes('--ci');
const pkgs = args.filter((a) => !a.startsWith('--'));
for (const pkg of pkgs)
  if (!(pkg in fileFloor)) {
    console.error(`unknown package ${pkg}: one of ${Object.keys(fileFloor).join(', ')}`);
    process.exit(2);
  }

const stripAnsi = (s) => s.replace(/\u001b\[[0-9;]*m/g, '');
const today = () => new Date().toISOString().slice(0, 10);

/** Runs Stryker, echoing its output; resolves to its exit code and what it printed. */
const stryker = (argv) =>
  new Promise((resolve, reject) => {
    const bin = join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
    const child = spawn(process.execPath, [bin, ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, out: stripAnsi(out) }));
  });

const survivorsOf = (file) => {
  const lines = file.source.split('\n');
  return file.mutants
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    .map(
      (m) =>
        `    line ${String(m.location.start.line)}: ${m.mutatorName} ${JSON.stringify(m.replacement ?? '')} (${m.status}) in ` +
        (lines[m.location.start.line - 1] ?? '').trim().slice(0, 100),
    );
};

/** Whether any test file was added, removed or changed since the recorded run `previous`. */
const testsChanged = (conf, previous) => {
  const specs = [conf.mochaOptions?.spec ?? []].flat().map(globToRegExp);
  const recordedTests = previous.testFiles ?? {};
  const dirs = [...new Set(sandboxRoots(conf))].filter((d) => existsSync(join(root, d)));
  const current = dirs
    .flatMap((d) => (statSync(join(root, d)).isDirectory() ? filesUnder(join(root, d)) : []))
    .map((f) => relative(root, f).split(sep).join('/'))
    .filter((f) => specs.some((r) => r.test(f)));
  if (current.length !== Object.keys(recordedTests).length) return true;
  return current.some((f) => recordedTests[f]?.source !== readFileSync(join(root, f), 'utf8'));
};

const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)],
  );

const runPackage = async (pkg) => {
  const confPath = join('stryker', `${pkg}.conf.json`);
  const conf = JSON.parse(readFileSync(join(root, confPath), 'utf8'));
  const file = recordedFile(pkg);
  const recorded = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).recorded : undefined;
  const inputs = mutationInputs(root, conf);
  const changed = existsSync(file) ? changedInputs(recorded?.inputs, inputs) : [];
  const force = full || changed.length > 0;
  console.log(`\n=== mutation: ${pkg} ===`);
  if (!existsSync(file)) console.log(`No recorded run (${file}): every mutant is tested.`);
  else if (full) console.log('--full: every mutant is tested again.');
  else if (changed.length > 0)
    console.log(
      `Every mutant is tested again: what the recorded run depended on, and Stryker does not diff, changed:\n  ` +
        changed.slice(0, 20).join('\n  ') +
        (changed.length > 20 ? `\n  ... and ${String(changed.length - 20)} more` : ''),
    );
  else console.log(`Incremental against the run recorded on ${String(recorded?.run?.date)}.`);

  // Stryker reads and writes a working copy; the recorded file changes only after a run that
  // reached a score. A static mutant (one made while a module loads) has no per-test coverage,
  // so Stryker would never test a surviving one again when a test is added: when any test file
  // differs from the recorded run, the copy leaves those out, and they are tested again.
  const work = join(root, 'reports', 'mutation', `${pkg}.incremental.json`);
  mkdirSync(dirname(work), { recursive: true });
  rmSync(work, { force: true });
  if (existsSync(file) && !force) {
    const { recorded: _, ...previous } = JSON.parse(readFileSync(file, 'utf8'));
    if (testsChanged(conf, previous))
      for (const f of Object.values(previous.files))
        f.mutants = f.mutants.filter(
          (m) => !(m.static === true && (m.status === 'Survived' || m.status === 'NoCoverage')),
        );
    writeFileSync(work, JSON.stringify(previous));
  }
  const started = Date.now();
  const argv = ['run', confPath, '--incremental', '--incrementalFile', work, ...(force ? ['--force'] : [])];
  const { code, out } = await stryker(argv);
  const minutes = Math.round((Date.now() - started) / 6000) / 10;
  // Stryker writes the file only when it got as far as a score: a run that failed before (its
  // first test run failing, a crash) must not be judged on the previous run's results.
  if (!existsSync(work) || statSync(work).mtimeMs < started)
    return [`${pkg}: Stryker ended (exit ${String(code)}) without a result; see its output above`];
  const reuse = /(\d+) of (\d+) mutant result\(s\) are reused/.exec(out);
  const report = JSON.parse(readFileSync(work, 'utf8'));
  const total = Object.values(report.files).reduce((n, f) => n + f.mutants.length, 0);
  const retested = force || reuse === null ? total : total - Number(reuse[1]);

  // Keep what later runs need (the results, the sources they were taken from, the tests) and
  // the inputs; drop this machine's paths and Stryker's logo.
  const { files, testFiles, schemaVersion, thresholds, framework } = report;
  const kept = {
    schemaVersion,
    thresholds,
    framework: { name: framework?.name, version: framework?.version, dependencies: framework?.dependencies },
    recorded: {
      inputs,
      run: {
        date: today(),
        mode: force ? 'full' : 'incremental',
        minutes,
        retested,
        fullRunDate: force ? today() : (recorded?.run?.fullRunDate ?? 'unknown'),
        load: Math.round(loadavg()[0] * 10) / 10,
      },
    },
    files,
    testFiles,
  };
  writeFileSync(file, `${JSON.stringify(kept, null, 1)}\n`);

  const { all, files: perFile } = scores(kept);
  const failures = [];
  const breakAt = thresholds?.break ?? conf.thresholds?.break;
  if (typeof breakAt === 'number' && all.score < breakAt)
    failures.push(`${pkg}: ${all.score.toFixed(2)}% is under its break threshold ${String(breakAt)}% (${confPath})`);
  if (code !== 0 && failures.length === 0)
    failures.push(`${pkg}: Stryker exited ${String(code)}; see its output above`);
  const floor = fileFloor[pkg];
  if (floor !== null)
    for (const [path, s] of Object.entries(perFile))
      if (s.score < floor) {
        failures.push(
          `${path}: ${s.score.toFixed(2)}% is under the file floor ${String(floor)}% (scripts/mutation.mjs)`,
        );
        failures.push(...survivorsOf(files[path]));
      }
  console.log(
    `${pkg}: ${all.score.toFixed(2)}% of ${String(all.total)} mutants (${String(retested)} tested in this run, ` +
      `${String(minutes)} min)` +
      (ci && !force && retested > 0
        ? `; the committed stryker/incremental/${pkg}.json was ${String(retested)} mutants behind: ` +
          '`pnpm mutation:update` and commit it to keep CI fast'
        : ''),
  );
  return failures;
};

const failures = [];
for (const pkg of pkgs.length > 0 ? pkgs : Object.keys(fileFloor)) failures.push(...(await runPackage(pkg)));
writeTable();
if (failures.length > 0) {
  console.error(`\nMUTATION GATE FAILED:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('\nmutation: every package and file at or above its threshold');
