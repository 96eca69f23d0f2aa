// The mutation score table of docs/testing.md, written from the recorded runs
// (stryker/incremental/<package>.json), never typed by hand.
//   node scripts/mutation-table.mjs           rewrite the table in docs/testing.md
//   node scripts/mutation-table.mjs --check   fail when the table is not what the recorded runs say (pnpm test)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = join(root, 'docs', 'testing.md');
const begin = '<!-- mutation-table: written by scripts/mutation-table.mjs from stryker/incremental/*.json -->';
const end = '<!-- mutation-table end -->';

export const recordedFile = (pkg) => join(root, 'stryker', 'incremental', `${pkg}.json`);

const detected = new Set(['Killed', 'Timeout']);
const undetected = new Set(['Survived', 'NoCoverage']);

/** Stryker's counts and score (killed + timed out over those plus survived and uncovered) of a list of mutants. */
export const tally = (mutants) => {
  const count = (s) => mutants.filter((m) => m.status === s).length;
  const d = mutants.filter((m) => detected.has(m.status)).length;
  const u = mutants.filter((m) => undetected.has(m.status)).length;
  return {
    total: mutants.length,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    ignored: count('Ignored'),
    errors: count('CompileError') + count('RuntimeError'),
    score: d + u === 0 ? 100 : (100 * d) / (d + u),
  };
};

/** The package's tally and each file's, from a Stryker report. */
export const scores = (report) => ({
  all: tally(Object.values(report.files).flatMap((f) => f.mutants)),
  files: Object.fromEntries(Object.entries(report.files).map(([path, f]) => [path, tally(f.mutants)])),
});

const pct = (n) => `${(Math.floor(n * 100) / 100).toFixed(2)}%`;
const int = (n) => n.toLocaleString('en-US');
const shortName = (path) => path.replace(/^packages\/[^/]+\/dist\/src\//, '');

const row = (pkg, report) => {
  const { all, files } = scores(report);
  const r = report.recorded?.run ?? {};
  const t = report.thresholds ?? {};
  const low = Object.entries(files)
    .filter(([, s]) => s.score < (t.high ?? 95))
    .sort(([, a], [, b]) => a.score - b.score)
    .map(([path, s]) => `${shortName(path)} ${pct(s.score)}`);
  const counts = [
    `${int(all.killed)} killed`,
    all.timeout > 0 ? `${int(all.timeout)} timed out` : null,
    `${int(all.survived)} survived`,
    `${int(all.noCoverage)} without coverage`,
    all.ignored > 0 ? `${int(all.ignored)} excluded` : null,
  ].filter((s) => s !== null);
  const run =
    r.mode === 'full'
      ? `full, ${String(r.date)}, ${String(r.minutes)} min`
      : `incremental, ${String(r.date)}: ${int(r.retested ?? 0)} re-tested in ${String(r.minutes)} min (last full run ${String(r.fullRunDate)})`;
  return [
    `| ${pkg} | ${int(all.total)} | **${pct(all.score)}** (${counts.join(', ')}) | ${String(t.break)}% | ${low.length === 0 ? 'none' : low.join(', ')} | ${run} |`,
  ];
};

/** The table, from every recorded run under stryker/incremental/. */
export const renderTable = () => {
  const dir = join(root, 'stryker', 'incremental');
  const pkgs = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -'.json'.length))
        .sort((a, b) => (a === 'domain' ? -1 : b === 'domain' ? 1 : a.localeCompare(b)))
    : [];
  const lines = [
    begin,
    '',
    '| package | mutants | score | break | files below 95% | last run (2 shared cores) |',
    '|---|--:|--:|--:|---|---|',
    ...pkgs.flatMap((pkg) => row(pkg, JSON.parse(readFileSync(recordedFile(pkg), 'utf8')))),
    '',
    end,
  ];
  return lines.join('\n');
};

const currentTable = (text) => {
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/testing.md has no mutation table (${begin} ... ${end})`);
  return [i, j + end.length];
};

export const writeTable = () => {
  const text = readFileSync(doc, 'utf8');
  const [i, j] = currentTable(text);
  writeFileSync(doc, text.slice(0, i) + renderTable() + text.slice(j));
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const text = readFileSync(doc, 'utf8');
    const [i, j] = currentTable(text);
    if (text.slice(i, j) !== renderTable()) {
      console.error(
        'docs/testing.md: the mutation table is not what stryker/incremental/*.json records.\n' +
          'It is written, not typed: run `node scripts/mutation-table.mjs` (pnpm mutation* runs it) and commit both.',
      );
      process.exit(1);
    }
    console.log('mutation table: docs/testing.md matches the recorded runs');
  } else {
    writeTable();
    console.log('docs/testing.md: mutation table rewritten from stryker/incremental/*.json');
  }
}
