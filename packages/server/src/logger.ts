import type { HttpLogger } from '@support/adapter-http-koa';
import type { LogLevel } from './config.js';
import { stdoutLines, type LineSink } from './stdout-lines.js';

// One JSON object per line: time, level, message, then the fields, a secret-looking field's
// value replaced by "[redacted]". The service writes one line per request, so the line is
// built by hand rather than by spreading and scrubbing an object: each field name is tested
// for a secret once and its JSON prefix kept, and the time string is made once per
// millisecond. The output is what JSON.stringify({ time, level, message, ...scrubbed }) gives.

const secretKey = /pass(word)?|token|secret|authorization|cookie/i;
const redacted = '"[redacted]"';

// Field names are the code's own few: a bound keeps a caller with made-up names from growing it.
const maxKnownNames = 1024;
const reserved = new Set(['time', 'level', 'message']);
const isArrayIndex = (name: string): boolean => /^(0|[1-9]\d*)$/.test(name) && Number(name) < 2 ** 32 - 1;

/** The HTTP adapter's logger, with the two levels only the server writes. */
export interface ServiceLogger extends HttpLogger {
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

const severity: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };
const ignore = (): void => undefined;

// Printable ASCII without a quote or a backslash: JSON writes such a string as it is.
const plainText = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The JSON text of one field's value; undefined when JSON leaves the field out (undefined, a
 * function). The values of a request's line are short strings and numbers, written here
 * without JSON.stringify's generic path (docs/benchmarks.md, "Figures behind the code").
 */
const valueJson = (value: unknown): string | undefined => {
  if (typeof value === 'string' && plainText.test(value)) return `"${value}"`;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return JSON.stringify(value);
};

/**
 * One JSON object per line: time, level, message and fields; secret-looking fields redacted.
 * Lines less severe than `least` (LOG_LEVEL) are not written (their method does nothing).
 */
export const jsonLogger = (sink: LineSink = stdoutLines, least: LogLevel = 'info'): ServiceLogger => {
  /**
   * `,"name":` for a field name; null for a name that suggests a secret; false for a name an
   * object literal would not keep in place (`time`, `level`, `message` replace those values
   * where they stand; an array index goes first), which the line leaves to JSON.stringify.
   */
  const prefixes = new Map<string, string | null | false>();
  const prefixOf = (name: string): string | null | false => {
    let p = prefixes.get(name);
    if (p === undefined) {
      p = reserved.has(name) || isArrayIndex(name) ? false : secretKey.test(name) ? null : `,${JSON.stringify(name)}:`;
      if (prefixes.size < maxKnownNames) prefixes.set(name, p);
    }
    return p;
  };
  let lastMs = Number.NaN;
  let lastTime = '';
  const time = (): string => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastTime = new Date(now).toISOString();
    }
    return lastTime;
  };

  // The message of the last line, as JSON: most lines are the access log's "request".
  let lastMessage = '';
  let lastMessageJson = '""';
  const line = (level: string, message: string, fields: Readonly<Record<string, unknown>> = {}): void => {
    if (message !== lastMessage) {
      lastMessage = message;
      lastMessageJson = JSON.stringify(message);
    }
    let text = `{"time":"${time()}","level":"${level}","message":${lastMessageJson}`;
    for (const name of Object.keys(fields)) {
      const value = fields[name];
      const prefix = prefixOf(name);
      if (prefix === false) {
        viaObject(level, message, fields);
        return;
      }
      if (prefix === null) {
        text += `,${JSON.stringify(name)}:${redacted}`;
        continue;
      }
      const json = valueJson(value);
      if (json !== undefined) text += prefix + json;
    }
    sink.write(`${text}}\n`);
  };
  const viaObject = (level: string, message: string, fields: Readonly<Record<string, unknown>>): void => {
    const scrubbed = Object.fromEntries(
      Object.entries(fields).map(([k, v]) => [k, secretKey.test(k) ? '[redacted]' : v]),
    );
    sink.write(`${JSON.stringify({ time: time(), level, message, ...scrubbed })}\n`);
  };
  const at = (level: LogLevel): ((m: string, f?: Readonly<Record<string, unknown>>) => void) =>
    severity[level] < severity[least]
      ? ignore
      : (m, f) => {
          line(level, m, f);
        };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
};
