import inflate from 'inflation';
import qs from 'qs';
import getRawBody from 'raw-body';
import type { AppContext } from '../state.js';
import { problem } from '../errors/http-problem.js';
import { scanJson } from './json-scan.js';
import { LargeJsonBody } from './json-thin.js';

// Request bodies of POST, PUT and PATCH are JSON with Content-Type: application/json
// (else 415; a charset other than UTF-8 is 415 too); PATCH also takes application/merge-patch+json (RFC 7396), the token
// endpoints also take application/x-www-form-urlencoded (RFC 6749). A body over 1 MiB
// is 413; malformed JSON, bytes that are not UTF-8, a JSON object with a name twice
// (I-JSON, RFC 7493) and nesting deeper than 64 levels are 400. JSON need not be an object here: a body of `"text"` or `3`
// parses, and the use case then says precisely that it must be an object (422) rather than
// a vague 400. What the JSON says is the use cases' business (422).

export const maxBodyBytes = 1024 * 1024;

export const mediaTypes = {
  json: 'application/json',
  mergePatch: 'application/merge-patch+json',
  form: 'application/x-www-form-urlencoded',
} as const;
export type BodyMediaType = (typeof mediaTypes)[keyof typeof mediaTypes];

// The bytes are read here (inflation and raw-body: gzip/deflate/br Content-Encoding, the
// 1 MiB limit counted on the inflated bytes), then decoded strictly and checked for repeated
// names, because a body parser that hands over text cannot refuse what is wrong with the
// bytes: invalid UTF-8 would arrive as U+FFFD, and JSON.parse keeps the last of two equal names.

const statusOf = (e: unknown): number | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number'
    ? (e as { status: number }).status
    : undefined;

/** As type-is judges (the rule Koa's body parsers follow): a request without Content-Length or Transfer-Encoding has no body. */
export const hasBody = (ctx: AppContext): boolean => {
  const { 'transfer-encoding': te, 'content-length': length } = ctx.req.headers;
  return te !== undefined || (length !== undefined && !Number.isNaN(Number(length)));
};

/** The request's content coding: names are case-insensitive (RFC 9110 §8.4.1) and x-gzip is gzip (§8.4.1.3). */
const contentCoding = (ctx: AppContext): string => {
  const named = (ctx.req.headers['content-encoding'] ?? '').trim().toLowerCase();
  return named === '' ? 'identity' : named === 'x-gzip' ? 'gzip' : named;
};

const readBytes = async (ctx: AppContext, encoding: string): Promise<Buffer> => {
  const length = ctx.req.headers['content-length'];
  // Content-Length counts the encoded bytes, so it is checked against what arrives only when
  // nothing is encoded; the limit always counts the inflated bytes (a zip bomb stops at 1 MiB).
  // inflation reads the coding from options.encoding before the header (@types/inflation misnames it gzip).
  const coding: inflate.Options & { readonly encoding: string } = { encoding };
  return getRawBody(inflate(ctx.req, coding), {
    limit: maxBodyBytes,
    length: encoding === 'identity' && length !== undefined && length !== '' ? length : null,
  });
};

/** The UTF-8 text of the bytes; a leading byte order mark is dropped (RFC 8259 §8.1 lets a parser ignore it). */
const utf8 = (bytes: Buffer, type: string): string => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw problem('malformedBody', `the request body is not valid UTF-8; send ${type} encoded in UTF-8`);
  }
};

/** How deep a request body may nest arrays and objects (no body of this API needs more than 3 levels). */
export const maxJsonDepth = 64;

/** A body of more values than this is read thinned (json-thin.ts); fewer cost little to build whole. */
export const thinAbove = 20_000;

/**
 * JSON text as the body's value, after one pass that validates it and refuses, with 400,
 * nesting past maxJsonDepth, an object name given twice (I-JSON) or `__proto__` (json-scan.ts).
 * A body of more than `thinAbove` values comes back as a LargeJsonBody, which decodeBody
 * (and the token endpoint) read only as far as their codecs look: building it whole could
 * hold the event loop past the budget of contract §11.
 */
export const parseJson = (text: string, type: string): unknown => {
  const scan = scanJson(text, maxJsonDepth);
  if (scan.ok) return scan.values > thinAbove ? new LargeJsonBody(text) : (JSON.parse(text) as unknown);
  switch (scan.kind) {
    case 'deep':
      throw problem(
        'malformedBody',
        `the request body nests arrays and objects more than ${maxJsonDepth} levels deep; no body of this API needs more than a few`,
      );
    case 'syntax':
      throw problem('malformedBody', `the request body could not be read as ${type}: ${scan.message}`);
    case 'duplicate':
    case 'forbidden': {
      const name = JSON.stringify(scan.key.slice(0, 64));
      const where =
        scan.pointer === '' ? 'the top-level object' : `the object at ${JSON.stringify(scan.pointer.slice(0, 128))}`;
      throw problem(
        'malformedBody',
        scan.kind === 'duplicate'
          ? `the request body has the key ${name} twice in ${where}; the keys of a JSON object must be unique (I-JSON, RFC 7493)`
          : `the request body has the key ${name} in ${where}, which is not allowed`,
      );
    }
  }
};

class NotUtf8 extends Error {}

/**
 * Percent-decodes a form name or value. A run of %XX escapes must spell UTF-8 (`%FF` does not,
 * and would otherwise reach the use cases as the literal text "%FF"); a `%` not followed by two
 * hex digits stays as it is, as the URL standard's form parser leaves it.
 */
const decodeFormPart = (part: string): string =>
  part.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(run.replace(/%/g, ''), 'hex'));
    } catch {
      throw new NotUtf8();
    }
  });

/** Forms are parsed as Koa's body parsers parse them (qs, with dots): a repeated parameter becomes an array. */
const parseForm = (text: string, type: string): unknown => {
  try {
    return qs.parse(text, { allowDots: true, decoder: decodeFormPart });
  } catch (e) {
    if (e instanceof NotUtf8)
      throw problem(
        'malformedBody',
        `the request body has percent-escapes that are not UTF-8; send ${type} encoded in UTF-8`,
      );
    throw problem('malformedBody', `the request body could not be read as ${type}`);
  }
};

/**
 * The raw bytes of the request body (inflated), read once per request: an Idempotency-Key
 * fingerprints them before the route parses them. Over 1 MiB is 413 (refused before a byte
 * is read when the client announces the size); an unreadable body is 400 or 415.
 */
export const requestBytes = (ctx: AppContext): Promise<Buffer> => {
  ctx.state.bodyBytes ??= (async () => {
    if (Number(ctx.get('Content-Length')) > maxBodyBytes) throw tooLarge();
    const encoding = contentCoding(ctx);
    try {
      return await readBytes(ctx, encoding);
    } catch (e) {
      const status = statusOf(e);
      if (status === 413) throw tooLarge();
      if (status === 415)
        throw problem(
          'unsupportedMediaType',
          'the request body has a Content-Encoding this API does not read (send it uncompressed, or as gzip, deflate or br)',
        );
      if (encoding !== 'identity')
        throw problem('malformedBody', `the request body could not be decompressed as ${encoding}`);
      throw problem('malformedBody', `the request body could not be read as ${ctx.request.type.toLowerCase()}`);
    }
  })();
  return ctx.state.bodyBytes;
};

/**
 * Reads and parses the body; `accepted` are the media types this operation takes. A large JSON
 * body is a LargeJsonBody (see parseJson): hand it to decodeBody, or read it with `thinned`.
 */
export const readBody = async (ctx: AppContext, accepted: readonly BodyMediaType[]): Promise<unknown> => {
  const type = ctx.request.type.toLowerCase();
  if (!(accepted as readonly string[]).includes(type)) {
    const sent =
      ctx.get('Content-Type') === '' ? 'no Content-Type' : `Content-Type "${ctx.get('Content-Type').slice(0, 64)}"`;
    throw problem(
      'unsupportedMediaType',
      `this operation takes a body of type ${accepted.join(' or ')}; the request has ${sent}`,
    );
  }
  // JSON is UTF-8 (RFC 8259 §8.1) and so is this API's form encoding: a body declared in
  // another charset would be read as UTF-8 and stored garbled. Refused, not guessed.
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw problem(
      'unsupportedMediaType',
      `request bodies are read as UTF-8; the request declares charset "${charset.slice(0, 32)}" (send UTF-8, with charset=utf-8 or no charset)`,
    );
  }
  const empty = () => problem('malformedBody', `the request body is empty; send a JSON object as ${type}`);
  if (!hasBody(ctx)) throw empty();
  const text = utf8(await requestBytes(ctx), type);
  // An empty form is a form without parameters (the token endpoint then names what is missing).
  if (type === mediaTypes.form) return parseForm(text, type);
  if (text === '') throw empty();
  return parseJson(text, type);
};

const tooLarge = () => problem('payloadTooLarge', `the request body is larger than ${maxBodyBytes} bytes (1 MiB)`);
