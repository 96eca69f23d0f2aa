import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The rule the embedded store rests on: every record a memory port keeps lives in a
// `journal.map(table)` with its restorer (the journal's seal checks the restorers at start).
// A record kept in a plain Map compiles, passes every suite on the memory store, and is lost
// at the first restart of the embedded one. So every Map in this package says what it is, on
// the line before: `// Map: derived: ...` (an index rebuilt by a restorer), `// Map: transient:
// ...` (never stored, by design), `// Map: journal: ...` (the journal's own). A Map that
// says none of these fails here; the self-test plants one.

const marked = /\/\/ Map: (derived|transient|journal): \S/;

/** The lines (1-based) of `source` that make a Map without saying what it holds. */
export const strayMaps = (source: string): number[] => {
  const lines = source.split('\n');
  return lines.flatMap((line, i) =>
    /\bnew (Big)?Map\b|\bextends (Big)?Map\b/.test(line) && !marked.test(line) && !marked.test(lines[i - 1] ?? '')
      ? [i + 1]
      : [],
  );
};

const sourceDir = new URL('../../src/', import.meta.url).pathname;
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

describe('the journal check: no record of the memory store is kept outside the journal', () => {
  it('every Map of adapter-memory/src says what it holds', () => {
    const files = sources(sourceDir);
    expect(files.length).to.be.greaterThan(20);
    const stray = files.flatMap((f) => strayMaps(readFileSync(f, 'utf8')).map((n) => `${f}:${n}`));
    expect(stray, 'a Map that may keep records the embedded store cannot restore').to.deep.equal([]);
  });

  it('self-test: a repository that keeps its records in a plain Map is caught', () => {
    const planted = [
      'export const memoryWidgetRepository = (journal: Journal): WidgetRepository => {',
      '  const rows = new Map<number, Widget>();',
      '  return { insert: (w) => answer(() => rows.set(w.id, w)) };',
      '};',
    ].join('\n');
    expect(strayMaps(planted)).to.deep.equal([2]);
    const marked = planted.replace('  const rows', '  // Map: derived: rebuilt by the widgets restorer\n  const rows');
    expect(strayMaps(marked)).to.deep.equal([]);
    expect(strayMaps('class Rows<K, V> extends Map<K, V> {}')).to.deep.equal([1]);
  });
});
