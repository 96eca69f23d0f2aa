// The attachments benchmarks' metadata reader (attachments-reader.ts) in a process of its own,
// favoured by the scheduler: bench:attachments and bench:attachments:profile start it the same way.
import { fileURLToPath } from 'node:url';
import { favour } from './pinning.js';
import { startNode } from './processes.js';

export interface ReaderTargets {
  /** The service's port, and the raw server's (0: none). */
  readonly service: number;
  readonly raw: number;
  /** The certificate file both servers use. */
  readonly ca: string;
  readonly token: string;
  /** The service's path the reader GETs. */
  readonly ticket: string;
}

export interface Reader {
  /** Files the reader's next requests under `name` ("service quiet", "raw busy", "idle", ...). */
  readonly phase: (name: string) => void;
  /** Tells the reader to print its readings and exit. */
  readonly end: () => void;
  /** Each phase's milliseconds, once the reader was told to end and exited. */
  readonly readings: Promise<Record<string, number[]>>;
}

export const startReader = (targets: ReaderTargets): Reader => {
  const reader = startNode([], [fileURLToPath(new URL('../attachments-reader.js', import.meta.url))], {
    env: {
      ...process.env,
      SERVICE: String(targets.service),
      RAW: String(targets.raw),
      CA: targets.ca,
      TOKEN: targets.token,
      TICKET: targets.ticket,
    },
    stdin: 'pipe',
  });
  const readings = new Promise<Record<string, number[]>>((resolve, reject) => {
    let out = '';
    reader.child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
    void reader.exited.then(({ code }) => {
      if (code === 0) resolve(JSON.parse(out) as Record<string, number[]>);
      else reject(new Error(`the reader exited ${code ?? '?'}: ${reader.stderrTail()}`));
    });
  });
  const favoured = favour(reader.child.pid);
  if (favoured !== null) console.log(`WARNING: ${favoured}`);
  return {
    phase: (name) => void reader.child.stdin?.write(`${name}\n`),
    end: () => void reader.child.stdin?.end('end\n'),
    readings,
  };
};
