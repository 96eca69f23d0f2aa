// Child processes: started (pinned when possible), read for their first line, measured through
// /proc (CPU time, RSS), and always stopped, even when the benchmark fails half-way.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface Started {
  readonly child: ChildProcess;
  /** Settles when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last 4,000 characters it wrote to stderr. */
  readonly stderrTail: () => string;
}

export interface StartOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** 'pipe' when the caller reads stdout (the anchors print their port), else discarded. */
  readonly stdout?: 'pipe' | 'ignore';
  /** 'pipe' when the caller writes to the child (the attachments reader's phases); none by default. */
  readonly stdin?: 'pipe' | 'ignore';
}

/**
 * Starts `node <args>` behind `prefix` (taskset) in its own process. stdout is piped when the
 * caller reads it, otherwise discarded (the service's access log: the service writes it as in
 * production, nobody waits on it). stderr is kept for errors.
 */
export const startNode = (
  prefix: readonly string[],
  args: readonly string[],
  { env = process.env, stdout = 'pipe', stdin = 'ignore' }: StartOptions = {},
): Started => {
  const [command = process.execPath, ...rest] = [...prefix, process.execPath, ...args];
  const child = spawn(command, rest, { env, stdio: [stdin, stdout, 'pipe'] });
  running.add(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => {
    stderr = (stderr + s).slice(-4000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, exited, stderrTail: () => stderr.trim() };
};

/** The child's first stdout line, parsed as JSON; rejects if it exits first or stays silent. */
export const firstLine = (started: Started, what: string, timeoutMs = 30_000): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const { child } = started;
    if (child.stdout === null) {
      reject(new Error(`${what}: its stdout is not piped`));
      return;
    }
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => {
      reject(new Error(`${what} did not start within ${timeoutMs} ms: ${started.stderrTail()}`));
    }, timeoutMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as unknown);
    });
    void started.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal ?? '?'}) before it was ready: ${started.stderrTail()}`));
    });
  });

export const isRunning = ({ child }: Started): boolean => child.exitCode === null && child.signalCode === null;

/** SIGTERM, then SIGKILL after 5 s; settles when the process has exited. */
export const stop = async (started: Started): Promise<void> => {
  if (!isRunning(started)) return;
  started.child.kill('SIGTERM');
  const timer = setTimeout(() => started.child.kill('SIGKILL'), 5_000);
  await started.exited;
  clearTimeout(timer);
};

/** CPU seconds (user + system) the process has used; NaN where /proc is missing. */
export const cpuSeconds = (pid: number | undefined): number => {
  try {
    // Fields after the command name (which may contain spaces): utime and stime are 14 and 15.
    const fields = (
      readFileSync(`/proc/${pid ?? 0}/stat`, 'utf8')
        .split(') ')
        .pop() ?? ''
    ).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
};

/** Resident set size in bytes; NaN where /proc is missing. */
export const rssBytes = (pid: number | undefined): number => {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid ?? 0}/status`, 'utf8'));
    return kb === null ? NaN : Number(kb[1]) * 1024;
  } catch {
    return NaN;
  }
};

/**
 * A field of the process's /proc status in MB (VmRSS, RssAnon: its own memory, RssFile: the pages
 * of mapped files it touched, e.g. the embedded store's LMDB map); NaN where /proc is missing.
 */
export const residentMb = (pid: number | undefined, field: 'VmRSS' | 'RssAnon' | 'RssFile'): number => {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid ?? 0}/status`, 'utf8'));
    return kb === null ? NaN : Number(kb[1]) / 1024;
  } catch {
    return NaN;
  }
};
