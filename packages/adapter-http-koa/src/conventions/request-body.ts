import { koaBody } from 'koa-body';
import type { AppContext } from '../state.js';
import { problem } from '../errors/http-problem.js';

// Request bodies of POST, PUT and PATCH are JSON with Content-Type: application/json
// (else 415; a charset other than UTF-8 is 415 too); PATCH also takes application/merge-patch+json (RFC 7396), the token
// endpoints also take application/x-www-form-urlencoded (RFC 6749). A body over 1 MiB
// is 413, malformed JSON is 400. What the JSON says is the use cases' business (422).

export const maxBodyBytes = 1024 * 1024;

export const mediaTypes = {
  json: 'application/json',
  mergePatch: 'application/merge-patch+json',
  form: 'application/x-www-form-urlencoded',
} as const;
export type BodyMediaType = (typeof mediaTypes)[keyof typeof mediaTypes];

// Parsers made once. Non-strict JSON: a body of `"text"` or `3` parses, and the use case
// then says precisely that the body must be an object (422), rather than a vague 400.
const jsonParser = koaBody({
  json: true,
  jsonStrict: false,
  jsonLimit: maxBodyBytes,
  jsonTypes: [mediaTypes.json, mediaTypes.mergePatch],
  urlencoded: false,
  text: false,
  multipart: false,
});
const formParser = koaBody({
  json: false,
  urlencoded: true,
  formLimit: maxBodyBytes,
  text: false,
  multipart: false,
});
const noop = (): Promise<void> => Promise.resolve();

const statusOf = (e: unknown): number | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number' ? (e as { status: number }).status : undefined;

/** Reads and parses the body; `accepted` are the media types this operation takes. */
export const readBody = async (ctx: AppContext, accepted: readonly BodyMediaType[]): Promise<unknown> => {
  const type = ctx.request.type.toLowerCase();
  if (!(accepted as readonly string[]).includes(type)) {
    const sent = ctx.get('Content-Type') === '' ? 'no Content-Type' : `Content-Type "${ctx.get('Content-Type').slice(0, 64)}"`;
    throw problem('unsupportedMediaType', `this operation takes a body of type ${accepted.join(' or ')}; the request has ${sent}`);
  }
  // JSON is UTF-8 (RFC 8259 §8.1) and so is this API's form encoding: a body declared in
  // another charset would be read as UTF-8 and stored garbled. Refused, not guessed.
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw problem('unsupportedMediaType', `request bodies are read as UTF-8; the request declares charset "${charset.slice(0, 32)}" (send UTF-8, with charset=utf-8 or no charset)`);
  }
  // Refused before a byte is read when the client announces the size.
  if (Number(ctx.get('Content-Length')) > maxBodyBytes) throw tooLarge();
  try {
    await (type === mediaTypes.form ? formParser : jsonParser)(ctx, noop);
  } catch (e) {
    const status = statusOf(e);
    if (status === 413) throw tooLarge();
    if (status === 415) throw problem('unsupportedMediaType', 'the request body has a Content-Encoding this API does not read (send it uncompressed or gzip)');
    const detail = e instanceof SyntaxError ? `: ${e.message}` : '';
    throw problem('malformedBody', `the request body could not be read as ${type}${detail}`);
  }
  const body: unknown = ctx.request.body;
  if (body === undefined || body === '') throw problem('malformedBody', `the request body is empty; send a JSON object as ${type}`);
  return body;
};

const tooLarge = () => problem('payloadTooLarge', `the request body is larger than ${maxBodyBytes} bytes (1 MiB)`);
