import { installStopSignals } from './signals.js';

// The process entry: the stop signals first, then the service (process.ts) loaded and
// started. A SIGTERM or SIGINT that arrives while the modules load or the server starts
// stops the process once it can, cleanly (exit 0, no stack, no banner).
const signals = installStopSignals();
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  // Every setting, from the one reference (config-reference.ts; docs/configuration.md).
  const { helpText } = await import('./config-texts.js');
  process.stdout.write(helpText());
  process.exit(0);
}
// Tests only: START_PAUSE=before-load holds start-up here until a signal (docs/operations.md, "Stopping").
if (process.env.START_PAUSE === 'before-load') await signals.pauseUntilSignal('before-load');
const { runProcess } = await import('./process.js');
await runProcess(signals);
