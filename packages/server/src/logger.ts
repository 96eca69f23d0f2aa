import type { HttpLogger } from '@support/adapter-http-koa';

const secretKey = /pass(word)?|token|secret|authorization|cookie/i;

/** Replaces the value of every field whose name suggests a secret. */
const scrub = (fields: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, secretKey.test(k) ? '[redacted]' : v]));

export interface LineSink {
  write(line: string): void;
}

/** One JSON object per line: time, level, message and fields; secret-looking fields redacted. */
export const jsonLogger = (sink: LineSink = process.stdout): HttpLogger => {
  const line = (level: string, message: string, fields: Readonly<Record<string, unknown>> = {}): void => {
    sink.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...scrub(fields) })}\n`);
  };
  return { info: (m, f) => { line('info', m, f); }, error: (m, f) => { line('error', m, f); } };
};
