// The summary of a V8 CPU profile (.cpuprofile): shares of the busy time by function (self and
// inclusive) and by module (a package's file, a dependency, a node: module).
//   node benchmarks/dist/anchors/profile-summary.js <file.cpuprofile> [owner prefix, e.g. koa]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export const summarizeProfile = (profile: CpuProfile, ownerPrefix?: string): string => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const frameOf = (id: number): CallFrame => {
    const node = byId.get(id);
    if (node === undefined) throw new Error(`the profile has no node ${id}`);
    return node.callFrame;
  };
  const name = (cf: CallFrame) => (cf.functionName === '' ? '(anonymous)' : cf.functionName);
  const self = new Map<number, number>();
  const dt = profile.timeDeltas;
  profile.samples.forEach((sample, i) => {
    self.set(sample, (self.get(sample) ?? 0) + (dt[i] ?? 0));
  });
  // Shares of the time the process was busy: idle time says nothing about the service.
  const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const total = [...self.entries()].filter(([id]) => !idleIds.has(id)).reduce((a, [, b]) => a + b, 0);
  const where = (cf: CallFrame): string => {
    const url = cf.url.replace(/^file:\/\//, '');
    const nm = url.lastIndexOf('node_modules/');
    if (nm >= 0)
      return url
        .slice(nm + 'node_modules/'.length)
        .split('/')
        .slice(0, url.includes('/@', nm) ? 2 : 1)
        .join('/');
    const pkg = /packages\/([^/]+)\/dist\/src\/(.*)\.js$/.exec(url);
    if (pkg !== null) return `${pkg[1] ?? ''}/${pkg[2] ?? ''}`;
    return url === '' ? `(${cf.functionName === '' ? 'native' : cf.functionName})` : url.replace(/^node:/, 'node:');
  };
  const fn = new Map<string, number>();
  const mod = new Map<string, number>();
  for (const [id, t] of self) {
    if (idleIds.has(id)) continue;
    const cf = frameOf(id);
    const key = `${name(cf)} ${where(cf)}:${cf.lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + t);
    const m = where(cf);
    mod.set(m, (mod.get(m) ?? 0) + t);
  }
  const top = (m: ReadonlyMap<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  // Inclusive time: a function's own time and its callees', counted once where it recurses.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (id: number) => {
    const cf = frameOf(id);
    return `${name(cf)} ${where(cf)}:${cf.lineNumber + 1}`;
  };
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    if (idleIds.has(id)) continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = keyOf(at);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + t);
    }
  }
  // Who owns the time: Node itself (HTTP, TLS, streams, events), V8 (GC, native, program),
  // the framework (Koa, its router and helpers), the service's packages.
  const owner = (m: string): string => {
    if (m.startsWith('node:') || m.startsWith('(write') || m === '(writev)' || m.startsWith('(read'))
      return 'node (http, tls, streams)';
    if (m.startsWith('((') || m.startsWith('(')) return `v8 ${m}`;
    if (
      /^(koa|koa-compose|delegates|@koa\/router|on-finished|path-to-regexp|statuses|http-errors|type-is|mime-types|vary|parseurl|accepts|cookies|content-disposition|encodeurl|escape-html|fresh|only|depd|ee-first)$/.test(
        m,
      )
    )
      return 'koa and its helpers';
    if (/^[a-z-]+\//.test(m) && !m.includes('node_modules')) return `service: ${m.split('/')[0] ?? m}`;
    return `other: ${m}`;
  };
  const owners = new Map<string, number>();
  for (const [m, t] of mod) owners.set(owner(m), (owners.get(owner(m)) ?? 0) + t);
  if (ownerPrefix !== undefined) {
    // Only the functions of one owner ("koa", "service: adapter-http-koa", ...).
    const mine = new Map<string, number>();
    for (const [id, t] of self) {
      if (idleIds.has(id)) continue;
      const cf = frameOf(id);
      if (!owner(where(cf)).startsWith(ownerPrefix)) continue;
      const key = `${name(cf)} ${where(cf)}:${cf.lineNumber + 1}`;
      mine.set(key, (mine.get(key) ?? 0) + t);
    }
    return `self time of ${ownerPrefix}* (shares of all busy time):\n${top(mine, 40)}`;
  }
  return [
    `self time by owner:\n${top(owners, 20)}`,
    `self time by function (of ${(total / 1e6).toFixed(1)} s busy):\n${top(fn, 40)}`,
    `inclusive time by function:\n${top(inclusive, 60)}`,
    `self time by module:\n${top(mod, 30)}`,
  ].join('\n\n');
};

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(summarizeProfile(JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as CpuProfile, process.argv[3]));
