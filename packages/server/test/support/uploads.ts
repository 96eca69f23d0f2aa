import { expect } from 'chai';
import { request } from 'node:https';
import type { Answer } from './answer.js';
import type { Api } from './harness.js';

// Uploads for the attachment suites: raw bodies and multipart ones as a browser's FormData sends them.

/** The first bytes of a PNG: what a type detector recognises. */
export const pngBytes = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4bf0000000049454e44ae426082',
  'hex',
);

export const rawUpload = (
  api: Api,
  token: string,
  bytes: Buffer | string,
  filename: string | null,
  headers: Record<string, string> = {},
): Promise<Answer> =>
  api.request('POST', filename === null ? '/v1/uploads' : `/v1/uploads?filename=${encodeURIComponent(filename)}`, {
    token,
    headers: { 'Content-Type': 'application/octet-stream', ...headers },
    body: Buffer.from(bytes),
  });

/** multipart/form-data with the given parts (name, filename, type, bytes). */
export const multipart = (
  parts: readonly { name: string; filename?: string; type?: string; bytes: Buffer | string }[],
): { body: Buffer; contentType: string } => {
  const boundary = '----support-test-7d1f';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type === undefined ? '' : `Content-Type: ${p.type}\r\n`}\r\n`,
      ),
      Buffer.from(p.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
};

/** Uploads `bytes` and answers the new upload's id. */
export const uploaded = async (
  api: Api,
  token: string,
  bytes: Buffer | string,
  filename = 'file.txt',
): Promise<number> => {
  const a = await rawUpload(api, token, bytes, filename, { 'Content-Type': 'text/plain' });
  expect(a.status, a.text).to.equal(201);
  return (a.json as { id: number }).id;
};

/**
 * An upload sent chunked (no Content-Length), one chunk per part: the server learns the size
 * only as the bytes arrive. A raw body unless `contentType` says otherwise (multipart).
 */
export const chunkedUpload = (
  api: Api,
  token: string,
  parts: readonly Buffer[],
  contentType = 'application/octet-stream',
): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const req = request(
      `${api.server.url}/v1/uploads?filename=chunked.bin`,
      {
        method: 'POST',
        rejectUnauthorized: false,
        agent: false,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    for (const p of parts) req.write(p);
    req.end();
  });
