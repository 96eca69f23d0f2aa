// The anchors' side of the capture: the file read into a lookup by method and URL.
import { readFileSync } from 'node:fs';

/**
 * Map "METHOD /path?query" -> { status, headers, body (Buffer), gzipHeaders, etag, notModifiedHeaders }.
 */
export const loadCapture = (file) => {
  const { routes } = JSON.parse(readFileSync(file, 'utf8'));
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
export const acceptsGzip = (acceptEncoding) => acceptEncoding !== undefined && acceptEncoding.includes('gzip');

/** Prints the port for the parent and stops on SIGTERM, like any of the three servers. */
export const announce = (port, close) => {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.on('SIGTERM', () => {
    close();
    process.exit(0);
  });
};
