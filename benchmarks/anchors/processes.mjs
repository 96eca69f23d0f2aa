// Child processes: started (pinned when possible), read for their first line, measured through
// /proc (CPU time, RSS), and always stopped, even when the benchmark fails half-way.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const running = new Set();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `node <args>` behind `prefix` (taskset) in its own process. stdout is piped when the
 * caller reads it (the anchors print their port), otherwise discarded (the service's access
 * log: the service writes it as in production, nobody waits on it). stderr is kept for errors.
 */
export const startNode = (prefix, args, { env = process.env, stdout = 'pipe' } = {}) => {
  const [command, ...rest] = [...prefix, process.execPath, ...args];
  const child = spawn(command, rest, { env, stdio: ['ignore', stdout, 'pipe'] });
  running.add(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s) => {
    stderr = (stderr + s).slice(-4000);
  });
  child.exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  child.stderrTail = () => stderr.trim();
  return child;
};

/** The child's first stdout line, parsed as JSON; rejects if it exits first or stays silent. */
export const firstLine = (child, what, timeoutMs = 30_000) =>
  new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start within ${timeoutMs} ms: ${child.stderrTail()}`)),
      timeoutMs,
    );
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
    void child.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal}) before it was ready: ${child.stderrTail()}`));
    });
  });

export const stop = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await child.exited;
  clearTimeout(timer);
};

/** CPU seconds (user + system) the process has used; NaN where /proc is missing. */
export const cpuSeconds = (pid) => {
  try {
    // Fields after the command name (which may contain spaces): utime and stime are 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
};

/** Resident set size in bytes; NaN where /proc is missing. */
export const rssBytes = (pid) => {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb === null ? NaN : Number(kb[1]) * 1024;
  } catch {
    return NaN;
  }
};
