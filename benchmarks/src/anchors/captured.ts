// The anchors' side of the capture: the file read into a lookup by method and URL.
import { readFileSync } from 'node:fs';
import type { Capture, Headers } from './capture.js';

export interface Replayed {
  readonly status: number;
  headers: Headers;
  readonly body: Buffer;
  readonly gzipHeaders: Headers | null;
  readonly etag: string | null;
  readonly notModifiedHeaders: Headers | null;
}

/** Map "METHOD /path?query" -> the answer to replay. */
export const loadCapture = (file: string): Map<string, Replayed> => {
  const { routes } = JSON.parse(readFileSync(file, 'utf8')) as Capture;
  return new Map(
    routes.map((r) => [
      `${r.method} ${r.path}`,
      {
        status: r.status,
        headers: r.headers,
        body: Buffer.from(r.body, 'base64'),
        gzipHeaders: r.gzip?.headers ?? null,
        etag: r.notModified?.etag ?? null,
        notModifiedHeaders: r.notModified?.headers ?? null,
      },
    ]),
  );
};

/** What a plain server checks: does the client take gzip at all. */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean => acceptEncoding?.includes('gzip') ?? false;

/** Prints the port for the parent and stops on SIGTERM, like any of the three servers. */
export const announce = (port: number, close: () => void): void => {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.on('SIGTERM', () => {
    close();
    process.exit(0);
  });
};

/** The port an anchor printed on its first line. */
export const portOf = (line: unknown): number => {
  const port = (line as { port?: unknown } | null)?.port;
  if (typeof port !== 'number') throw new Error(`expected {"port": N}, got ${JSON.stringify(line)}`);
  return port;
};
