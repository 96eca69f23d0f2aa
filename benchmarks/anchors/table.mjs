// Medians over rounds, and the printed table (Markdown, so a run pastes into the README).
export const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Per round a / b, then the median: a slow round slows every server in it, the ratio less. */
export const medianRatio = (as, bs) => median(as.map((a, i) => a / bs[i]));

const fixed = (digits) => (x) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const ratio = fixed(2);
const ms = (x) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '-');
const count = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-');
const percent = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '-');

/**
 * `results`: endpoint name -> server name -> per-round runs ({ rps, p50, p99, errors, serverCpu,
 * loadCpu }). The first server is the reference (raw), the second the framework (Fastify).
 */
export const summaryTable = (results, [raw, framework, service]) => {
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
    const of = (server, field) => byServer.get(server).map((r) => r[field]);
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
const aligned = (rows) => {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const right = rows[1].map((rule) => rule.endsWith(':'));
  return rows
    .map((cells, i) => {
      const padded = cells.map((cell, c) => {
        if (i === 1) return right[c] ? `${'-'.repeat(widths[c] - 1)}:` : '-'.repeat(widths[c]);
        return right[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]);
      });
      return `| ${padded.join(' | ')} |`;
    })
    .join('\n');
};
