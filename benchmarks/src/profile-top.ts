// The functions with the most self time in a V8 CPU profile (`node --cpu-prof`), with their
// share of the profile's samples: what bench:mixed's MIXED_PROFILE writes, or any .cpuprofile.
//
//   node benchmarks/dist/profile-top.js <file.cpuprofile> [how many, default 25]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const [file, howMany = '25'] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node benchmarks/dist/profile-top.js <file.cpuprofile> [how many]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
// Map: transient: this script's tallies
const nameOf = new Map<number, string>();
for (const n of profile.nodes) {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url === '' ? '' : ` ${url.replace(/^.*\/(packages|node_modules)\//, '$1/')}:${lineNumber + 1}`;
  nameOf.set(n.id, `${functionName === '' ? '(anonymous)' : functionName}${where}`);
}
// Map: transient: this script's tallies
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i] ?? 0;
  const name = nameOf.get(id) ?? '?';
  self.set(name, (self.get(name) ?? 0) + us);
  total += us;
});
// Waiting for I/O is not work: shares are of the busy time.
const busy = total - (self.get('(idle)') ?? 0);
console.log(`${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy; self time by function:`);
console.log('| self ms | share of busy | function |');
console.log('|--:|--:|---|');
for (const [name, us] of [...self.entries()]
  .filter(([name]) => name !== '(idle)')
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(howMany)))
  console.log(`| ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)}% | \`${name}\` |`);
