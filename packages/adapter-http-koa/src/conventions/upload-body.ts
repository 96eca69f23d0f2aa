import busboy from 'busboy';
import { createHash, type Hash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { problem } from '../errors/http-problem.js';
import type { AppContext } from '../state.js';
import { freeChunk } from './chunk-release.js';
import { dispositionFilename } from './content-disposition.js';
import { receiptClock } from '../node/request-receipt.js';
import { hasBody } from './request-body.js';
import type { UploadPacer } from './upload-pacing.js';

// The body of POST /v1/uploads (contract §9), the one request body that is not JSON: the file's
// bytes as the raw body (type from Content-Type, name from ?filename= or Content-Disposition),
// or multipart/form-data with one part named `file` (busboy, a maintained streaming parser).
// Never buffered whole: the file's bytes are handed on as they arrive, at the pace all uploads
// share (upload-pacing.ts), and the file's first bytes kept for the type detector. An
// Idempotency-Key compares the request's bytes by their SHA-256: for a raw body that is the
// file's own hash (the blob store takes it), so only a multipart body with a key is hashed here.

/** A multipart body carries boundaries and part headers around the file: this much is allowed over the limit. */
export const multipartOverhead = 16 * 1024;
/** As many leading bytes as the type detector reads (file-type's sample size). */
const sniffBytes = 4100;

export interface UploadBody {
  readonly filename: string | null;
  readonly declaredType: string | null;
  /** The file's bytes; ends with an error when the body turns out malformed (a second file part). */
  readonly source: AsyncIterable<Uint8Array>;
  /** Frees a chunk of `source` once the blob store has its bytes (chunk-release.ts). */
  readonly release: (chunk: Uint8Array) => void;
  /** The file's first bytes (up to 4100) seen so far. */
  leading(): Buffer;
  /**
   * SHA-256 (hex) of the whole request body, once `source` has ended, given the file's: the
   * same for a raw body; for multipart, taken while streaming, and only when the request has
   * an Idempotency-Key (the one use of it).
   */
  bodyHash(fileSha256: string): string;
}

const isMultipart = (ctx: AppContext): boolean => ctx.request.is('multipart/form-data') === 'multipart/form-data';

/** Refuses what can be refused before a byte is read: no body, an encoded one, one announced too large. */
const checkAnnounced = (ctx: AppContext, maxBytes: number, multipart: boolean): void => {
  if (!hasBody(ctx))
    throw problem(
      'malformedBody',
      "the request has no body: send the file's bytes, or multipart/form-data with a part named file",
    );
  const encoding = (ctx.get('Content-Encoding') || 'identity').toLowerCase();
  if (encoding !== 'identity')
    throw problem(
      'unsupportedMediaType',
      'an upload is sent as it is, without Content-Encoding: the bytes are kept as sent',
    );
  const announced = Number(ctx.get('Content-Length'));
  if (Number.isFinite(announced) && announced > maxBytes + (multipart ? multipartOverhead : 0))
    throw problem(
      'uploadTooLarge',
      `the body is ${String(announced)} bytes; an upload may have at most ${String(maxBytes)} (UPLOAD_MAX_BYTES); nothing was read`,
    );
};

/** Keeps the first `sniffBytes` of the file. */
const leadingKeeper = () => {
  const parts: Buffer[] = [];
  let kept = 0;
  return {
    see: (chunk: Uint8Array): void => {
      if (kept >= sniffBytes) return;
      const part = Buffer.from(chunk.subarray(0, sniffBytes - kept));
      parts.push(part);
      kept += part.length;
    },
    bytes: (): Buffer => Buffer.concat(parts),
  };
};

/** The raw body as the file: name from ?filename= or Content-Disposition, type from Content-Type. */
const rawUpload = (ctx: AppContext, pacer: UploadPacer): UploadBody => {
  const given = ctx.query['filename'];
  if (Array.isArray(given)) throw problem('badQueryParameter', 'filename: give it once');
  const filename = given ?? dispositionFilename(ctx.get('Content-Disposition'));
  const lead = leadingKeeper();
  const req = ctx.req;
  async function* source(): AsyncIterable<Uint8Array> {
    for await (const chunk of pacer.paced(req, receiptClock(req))) {
      lead.see(chunk);
      yield chunk;
    }
  }
  return {
    filename: filename ?? null,
    declaredType: ctx.get('Content-Type') || null,
    source: source(),
    release: freeChunk,
    leading: lead.bytes,
    bodyHash: (fileSha256) => fileSha256,
  };
};

/** multipart/form-data: waits for the part named `file` (its headers carry the name and type). */
const multipartUpload = (ctx: AppContext, pacer: UploadPacer, hash: Hash | null): Promise<UploadBody> =>
  new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // Browsers send a part's filename as UTF-8 (busboy's default reads it as latin1).
      parser = busboy({
        headers: ctx.req.headers,
        defParamCharset: 'utf8',
        limits: { files: 2, fields: 20, parts: 30, fieldSize: 8192 },
      });
    } catch {
      reject(problem('malformedBody', 'the multipart/form-data body has no usable boundary'));
      return;
    }
    let found = false;
    let failure: Error | null = null;
    // busboy emits a malformed part header as 'error' without closing (and the pipe then stops
    // feeding it): the file's source, already read to its end, waits for either.
    const finished = new Promise<void>((done) => {
      parser.on('close', done);
      parser.on('error', () => {
        done();
      });
    });
    const fail = (e: Error): void => {
      failure ??= e;
      if (!found) reject(failure);
    };
    // A second file, or a second part named file (one refusal, however busboy reports it).
    const secondFile = (): void => {
      fail(problem('malformedBody', 'a multipart upload carries one file, in the part named file'));
    };
    parser.on('error', () => {
      fail(problem('malformedBody', 'the multipart/form-data body could not be read'));
    });
    parser.on('filesLimit', secondFile);
    parser.on('close', () => {
      if (!found) fail(problem('malformedBody', 'the multipart/form-data body has no part named file'));
    });
    // A part named file with no filename, or an empty one (an empty file input), is a form
    // field to busboy: the upload then has no name, refused as a raw body without one is
    // (422 on filename), not as a body with no part named file.
    parser.on('field', (name: string) => {
      if (name !== 'file') return;
      if (found) {
        secondFile();
        return;
      }
      found = true;
      resolve({
        filename: null,
        declaredType: null,
        source: Readable.from([]),
        release: freeChunk,
        leading: () => Buffer.alloc(0),
        bodyHash: () => {
          throw new Error('an upload without a name is refused before its body is hashed');
        },
      });
    });
    parser.on('file', (name: string, stream: Readable, info: busboy.FileInfo) => {
      if (name !== 'file' || found) {
        if (found) secondFile();
        stream.resume();
        return;
      }
      found = true;
      const lead = leadingKeeper();
      async function* source(): AsyncIterable<Uint8Array> {
        for await (const chunk of pacer.paced(stream, receiptClock(ctx.req))) {
          lead.see(chunk);
          yield chunk;
        }
        await finished;
        if (failure !== null) throw failure;
      }
      resolve({
        filename: info.filename ?? null,
        declaredType: info.mimeType || null,
        source: source(),
        // busboy hands the file over as slices of the request's chunks, parsed at once as each
        // arrives (a boundary split over two chunks is matched in a copy of its own). A slice
        // that is its buffer whole is a request chunk of file bytes only: nothing else reads it.
        // Every other slice shares its buffer (part headers, a boundary), and freeChunk leaves it.
        release: freeChunk,
        leading: lead.bytes,
        bodyHash: () => {
          if (hash === null) throw new Error('a multipart body is hashed only when it carries an Idempotency-Key');
          return hash.copy().digest('hex');
        },
      });
    });
    // A request cut off before its end (its client gone, or too late: node/request-receipt.ts)
    // does not end the parser through the pipe: the file's stream fails, and nothing waits on.
    ctx.req.once('close', () => {
      if (!ctx.req.complete) parser.destroy(new Error('the request was cut off before its end'));
    });
    if (hash === null) ctx.req.pipe(parser);
    else {
      const tap = new PassThrough();
      tap.on('data', (c: Buffer) => hash.update(c));
      ctx.req.pipe(tap).pipe(parser);
    }
  });

/** Reads an upload's body as far as its file's name and type (multipart: the file part's headers). */
export const readUpload = async (ctx: AppContext, maxBytes: number, pacer: UploadPacer): Promise<UploadBody> => {
  const multipart = isMultipart(ctx);
  checkAnnounced(ctx, maxBytes, multipart);
  if (!multipart) return rawUpload(ctx, pacer);
  return multipartUpload(ctx, pacer, ctx.state.streamedKey === null ? null : createHash('sha256'));
};
