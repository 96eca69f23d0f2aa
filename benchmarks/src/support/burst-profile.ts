// A V8 CPU profile's samples taken inside given time windows (µs of the monotonic clock, as
// process.hrtime gives it: the profile's startTime is on the same clock), summed by what the
// process was doing: the categories the attachments benchmark reports (docs/benchmarks.md).
import type { CpuProfile } from '../anchors/profile-summary.js';

export interface TimedProfile extends CpuProfile {
  readonly startTime: number;
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
}

/**
 * fs bindings: they only hand the work to libuv's thread pool, but a service pinned to one core
 * shares it with those threads, which run (the writes, the fsyncs) as soon as they are woken.
 */
const fsBindings = new Set([
  'writeBuffers',
  'writeBuffer',
  'writev',
  'openFileHandle',
  'open',
  'close',
  'fsync',
  'rename',
]);

/** What a sampled frame (its own time) was doing. */
const categoryOf = (functionName: string, url: string): string => {
  if (url === '' && fsBindings.has(functionName))
    return 'fs bindings (writeBuffers, open, rename, fsync, close): the thread pool on the same core';
  if (url === '' && !functionName.startsWith('(')) return 'native (other bindings, microtasks)';
  if (functionName === '(idle)') return 'idle (waiting for I/O)';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'native, outside JS (socket reads: TLS decryption; libuv)';
  if (url === 'node:internal/crypto/hash') return 'SHA-256 (hash.update/digest)';
  if (/node_modules\/(file-type|strtok3|token-types|peek-readable|uint8array-extras)\//.test(url))
    return 'file-type detection';
  if (/node_modules\/(busboy|streamsearch)\//.test(url)) return 'busboy (multipart)';
  if (/node_modules\/(lmdb|msgpackr|ordered-binary)\//.test(url)) return 'LMDB store';
  if (/^node:(internal\/)?fs/.test(url)) return 'fs calls and callbacks (JS)';
  if (/^node:(_http|internal\/http)/.test(url)) return 'HTTP parsing and answering (node:http)';
  if (/^node:(_tls|tls|net|internal\/stream_base_commons|internal\/tls)/.test(url))
    return 'socket glue (node:net/tls, reads handed to JS)';
  if (/^node:(internal\/streams|stream)/.test(url)) return 'streams';
  if (/upload-(pacing|body)\.js$/.test(url)) return 'upload reading (pacing, body)';
  if (/adapter-embedded\/dist\/src\/blob-files\.js$/.test(url)) return 'blob files (batching writes)';
  if (/pipeline\/idempotency\.js$/.test(url)) return 'idempotency';
  if (/node_modules\/(koa|@koa|koa-compose|path-to-regexp)\//.test(url) || url.includes('adapter-http-koa'))
    return 'koa and the HTTP adapter (other)';
  if (/packages\/(application|domain|adapter-embedded)\//.test(url)) return 'application and store (other)';
  if (url.startsWith('node:')) return 'node (other)';
  return 'other';
};

/** The profile with only the samples inside `windows`, and a table of their time by category. */
export const burstCategories = (
  profile: TimedProfile,
  windows: readonly { from: number; to: number }[],
): { table: string; during: CpuProfile } => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const samples: number[] = [];
  const deltas: number[] = [];
  const sums = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (!windows.some((w) => at >= w.from && at <= w.to)) return;
    samples.push(id);
    deltas.push(dt);
    const cf = byId.get(id)?.callFrame;
    const k = cf === undefined ? 'other' : categoryOf(cf.functionName, cf.url);
    sums.set(k, (sums.get(k) ?? 0) + dt);
  });
  const total = [...sums.values()].reduce((a, b) => a + b, 0);
  const table = [...sums]
    .sort((a, b) => b[1] - a[1])
    .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(6)} ms  ${k}`)
    .join('\n');
  return { table, during: { nodes: profile.nodes, samples, timeDeltas: deltas } };
};
