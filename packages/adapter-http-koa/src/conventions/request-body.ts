import inflate from 'inflation';
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

const hexDigit = (c: number): number => {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
};

/** This API's forms carry a handful of parameters (the token endpoints); more than this is 400. */
export const maxFormParameters = 1000;

/** A parameter into the form: sent twice it is a list; a name with brackets or a dot (`a[b]`, `a.b`) is a structure under `a`. */
const addParameter = (form: Record<string, unknown>, name: string, value: string): void => {
  if (name === '') return;
  const cut = name.search(/[.[]/);
  const key = cut > 0 ? name.slice(0, cut) : name;
  const item = cut > 0 ? { [name.slice(cut)]: value } : value;
  const had = form[key];
  if (had === undefined) form[key] = item;
  else if (Array.isArray(had)) had.push(item);
  else form[key] = [had, item];
};

/**
 * A form body (application/x-www-form-urlencoded), read in one pass over its bytes, so that no
 * form within the 1 MiB limit holds the event loop (contract §11; the token endpoints read it
 * before any authentication): `&` separates parameters, the first `=` a name from its value,
 * `+` is a space, `%XX` a byte, a `%` without two hex digits stays text, and each name and value
 * must then be UTF-8 (`password=%FF` is 400, as raw bytes that are not UTF-8 are). A parameter
 * sent twice is a list and a name with brackets or a dot a structure (as qs read them before:
 * never a string, so the token endpoint still refuses them); empty names are dropped. qs took
 * 100-230 ms for one 1 MiB form (`a[a][a]...=1`, `a=%41+%41+...`): its nested names and a
 * replace per `+` and a decoder per escape run.
 */
export const parseForm = (text: string, type: string): unknown => {
  const bytes = Buffer.from(text, 'utf8');
  const part = Buffer.allocUnsafe(bytes.length);
  const strict = new TextDecoder('utf-8', { fatal: true });
  const form: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let length = 0;
  let name: string | null = null;
  let count = 0;
  const take = (): string => {
    try {
      return strict.decode(part.subarray(0, length));
    } catch {
      throw problem(
        'malformedBody',
        `the request body has percent-escapes that are not UTF-8; send ${type} encoded in UTF-8`,
      );
    } finally {
      length = 0;
    }
  };
  for (let i = 0; i <= bytes.length; i++) {
    const c = i < bytes.length ? (bytes[i] as number) : 0x26;
    if (c === 0x26) {
      if (name !== null || length > 0) {
        if (++count > maxFormParameters)
          throw problem('malformedBody', `the request body has more than ${maxFormParameters} form parameters`);
        const value = name === null ? '' : take();
        addParameter(form, name ?? take(), value);
      }
      name = null;
    } else if (c === 0x3d && name === null) name = take();
    else if (c === 0x2b) part[length++] = 0x20;
    else if (c === 0x25 && i + 2 < bytes.length) {
      const high = hexDigit(bytes[i + 1] as number);
      const low = hexDigit(bytes[i + 2] as number);
      if (high >= 0 && low >= 0) {
        part[length++] = high * 16 + low;
        i += 2;
      } else part[length++] = c;
    } else part[length++] = c;
  }
  return form;
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
  // Koa's type is the text before the first ';' as sent: RFC 9110 §8.3.1 allows spaces before it.
  const type = ctx.request.type.trim().toLowerCase();
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
