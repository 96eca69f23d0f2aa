// A benchmark's settings from the environment: a whole number at or above a floor, or the run
// stops at once saying which variable is wrong (a typo must not measure something else).
import { loadavg } from 'node:os';

/** process.env[name] as a whole number >= min, `fallback` when unset; exits 2 otherwise. */
export const knob = (name: string, fallback: number, min: number): number => {
  const raw = process.env[name];
  const value = Number(raw ?? fallback);
  if (!Number.isInteger(value) || value < min) {
    console.error(`${name} must be a whole number >= ${min} (got ${raw ?? 'nothing'})`);
    process.exit(2);
  }
  return value;
};

/** A comma-separated list of whole numbers >= min (e.g. concurrencies); exits 2 otherwise. */
export const knobList = (name: string, fallback: string, min: number): number[] => {
  const raw = process.env[name] ?? fallback;
  const values = raw.split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v < min)) {
    console.error(`${name} must be whole numbers >= ${min}, comma-separated (got ${raw})`);
    process.exit(2);
  }
  return values;
};

/** A positive number (seconds, a rate; fractions allowed); exits 2 otherwise. */
export const knobSeconds = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = Number(raw ?? fallback);
  if (!(value > 0)) {
    console.error(`${name} must be a number > 0 (got ${raw ?? 'nothing'})`);
    process.exit(2);
  }
  return value;
};

/** The machine's load averages, as `uptime` prints them: say them beside every figure. */
export const load = (): string =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

/** SERVICE_ENV="A=1 B=2": settings added to the service's environment (the settings being compared). */
export const serviceEnv = (): Record<string, string> =>
  Object.fromEntries(
    (process.env['SERVICE_ENV'] ?? '')
      .split(/\s+/)
      .filter((s) => s.includes('='))
      .map((s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)]),
  );

/** SERVICE_NODE_ARGS="--a --b": node flags given before the service's script (e.g. --trace-gc). */
export const serviceNodeArgs = (): string[] =>
  (process.env['SERVICE_NODE_ARGS'] ?? '').split(/\s+/).filter((a) => a !== '');
