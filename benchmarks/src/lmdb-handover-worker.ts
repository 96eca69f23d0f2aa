// The worker side of bench:lmdb-handover's `worker` mode: owns the writes, one synchronous
// transaction per batch of calls that arrived together, and answers each call's number.
import { open } from 'lmdb';
import { parentPort, workerData } from 'node:worker_threads';

const { path } = workerData as { path: string };
const env = open({ path, overlappingSync: false, maxDbs: 4 });
const rows = env.openDB({ name: 'rows' });
const meta = env.openDB({ name: 'meta' });
type Call = { n: number; puts: [number, unknown][] };
let queue: Call[] = [];
let scheduled = false;
const flush = (): void => {
  scheduled = false;
  const batch = queue;
  queue = [];
  env.transactionSync(() => {
    for (const call of batch) {
      for (const [k, v] of call.puts) rows.putSync(k, v);
      meta.putSync('lastCommit', call.n);
    }
  });
  parentPort?.postMessage(batch.map((c) => c.n));
};
parentPort?.on('message', (call: Call | 'close') => {
  if (call === 'close') {
    void env.close().then(() => parentPort?.close());
    return;
  }
  queue.push(call);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});
