// SIGTERM and SIGINT from the first moment of the process. Installed before the service's
// modules load (most of a start), so a signal during start-up is noted instead of killing
// the process the default way (by the signal, exit code null); once the server runs, a
// signal goes to its graceful stop.

export type StopSignal = 'SIGTERM' | 'SIGINT';

export interface StopSignals {
  /** The first signal received before a handler took over, if any. */
  received(): StopSignal | null;
  /** From now on a signal calls `handler` (the running server's stop). */
  handleWith(handler: (signal: StopSignal) => void): void;
  /**
   * Tests only (START_PAUSE, see docs/operations.md, "Stopping"): writes one line saying where start-up
   * waits, and resolves at the first signal, so a test can signal at a known point.
   */
  pauseUntilSignal(at: string): Promise<void>;
}

export const installStopSignals = (): StopSignals => {
  let received: StopSignal | null = null;
  let handler: ((signal: StopSignal) => void) | null = null;
  const waiting: (() => void)[] = [];
  const on = (signal: StopSignal): void => {
    if (handler !== null) {
      handler(signal);
      return;
    }
    received ??= signal;
    for (const wake of waiting.splice(0)) wake();
  };
  process.on('SIGTERM', () => {
    on('SIGTERM');
  });
  process.on('SIGINT', () => {
    on('SIGINT');
  });
  return {
    received: () => received,
    handleWith: (h) => {
      handler = h;
    },
    pauseUntilSignal: (at) => {
      if (received !== null) return Promise.resolve();
      process.stdout.write(
        `${JSON.stringify({ time: new Date().toISOString(), level: 'info', message: 'start paused until a signal', at })}\n`,
      );
      // Signal listeners do not keep the process alive; a timer does, until the signal.
      const alive = setInterval(() => undefined, 60_000);
      return new Promise((resolve) =>
        waiting.push(() => {
          clearInterval(alive);
          resolve();
        }),
      );
    },
  };
};
