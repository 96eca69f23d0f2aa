// Log lines written once per turn of the event loop instead of once per line: under load a
// turn answers several requests, and each write is a system call, a noticeable part of a
// small cached answer's CPU time (docs/benchmarks.md, "Figures behind the code"). A line waits
// at most until the loop's next check phase; at exit (process.exit, an uncaught exception)
// whatever waits is written at once.

/** Where log lines go, one JSON object per line. */
export interface LineSink {
  write(line: string): void;
}

/** A sink that hands `write` the lines of one turn of the event loop at once. */
export const batchedLines = (write: (text: string) => void): LineSink => {
  let pending = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  process.on('exit', flush);
  return {
    write: (line) => {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
};

/** The service's log: standard output. */
export const stdoutLines: LineSink = batchedLines((text) => {
  process.stdout.write(text);
});
