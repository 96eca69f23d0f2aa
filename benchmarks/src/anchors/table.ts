// Medians over rounds, and the printed table (Markdown, so a run pastes into the README).
import type { Run } from './load.js';

/** The median of the finite values (the mean of the middle two for an even count); NaN for none. */
export const median = (xs: readonly number[]): number => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  const mid = s.length >> 1;
  if (s.length % 2 === 1) return s[mid] ?? NaN;
  return ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

/** Per round a / b, then the median: a slow round slows every server in it, the ratio less. */
export const medianRatio = (as: readonly number[], bs: readonly number[]): number =>
  median(as.map((a, i) => a / (bs[i] ?? NaN)));

const fixed = (digits: number) => (x: number) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const ratio = fixed(2);
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '-');
const count = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-');
const percent = (x: number) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '-');

/**
 * `results`: endpoint name -> server name -> per-round runs. The first server is the reference
 * (raw), the second the framework (Fastify), the third the service.
 */
export const summaryTable = (
  results: ReadonlyMap<string, ReadonlyMap<string, readonly Run[]>>,
  [raw, framework, service]: readonly [string, string, string],
): string => {
  const rows = [
    [
      'endpoint',
      'server',
      'req/s',
      '× raw',
      `× ${framework}`,
      'p50 ms',
      'p99 ms',
      'p99 × raw',
      'errors',
      'server CPU',
      'load CPU',
    ],
    ['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
  ];
  for (const [endpoint, byServer] of results) {
    const of = (server: string, field: keyof Omit<Run, 'unsteady'>) =>
      (byServer.get(server) ?? []).map((r) => r[field]);
    for (const server of [raw, framework, service]) {
      rows.push([
        endpoint,
        server,
        count(median(of(server, 'rps'))),
        ratio(medianRatio(of(server, 'rps'), of(raw, 'rps'))),
        server === service ? ratio(medianRatio(of(server, 'rps'), of(framework, 'rps'))) : '',
        ms(median(of(server, 'p50'))),
        ms(median(of(server, 'p99'))),
        ratio(medianRatio(of(server, 'p99'), of(raw, 'p99'))),
        count(of(server, 'errors').reduce((a, b) => a + b, 0)),
        percent(median(of(server, 'serverCpu'))),
        percent(median(of(server, 'loadCpu'))),
      ]);
    }
  }
  return aligned(rows);
};

/** Cells padded to their column's width (numbers to the right): readable as text and as Markdown. */
const aligned = (rows: readonly (readonly string[])[]): string => {
  const header = rows[0] ?? [];
  const widths = header.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const right = (rows[1] ?? []).map((rule) => rule.endsWith(':'));
  return rows
    .map((cells, i) => {
      const padded = cells.map((cell, c) => {
        const width = widths[c] ?? 0;
        if (i === 1) return right[c] ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width);
        return right[c] ? cell.padStart(width) : cell.padEnd(width);
      });
      return `| ${padded.join(' | ')} |`;
    })
    .join('\n');
};
