import { defaultOpenApiDocument } from '@support/adapter-http-koa';
import { METHODS } from 'node:http';
import type { Answer } from './answer.js';
import { isObject, type Json, type Received } from './response-schemas.js';
import { answerChecks } from './answer-checks.js';

// Every answer of every HTTP test is checked against the served OpenAPI document
// (packages/adapter-http-koa/src/openapi): the operation must be documented for the
// method and path (templates, the .json suffix, a trailing slash), the status must be
// one of its responses, the JSON body must match that response's schema (JSON Schema
// 2020-12, with ajv; write-only fields must not appear in an answer), and the response's
// required headers must be present and match their schemas.
//
// Answers the document describes in prose rather than per operation:
//   - envelope=true / callback=<name>: 200 with an Envelope (JSONP: /**/name(...);); the
//     envelope is checked, then its status_code and response as the real answer.
//   - HEAD: checked as GET, without a body (with an envelope asked for: 200, nothing more to see).
//   - OPTIONS on a known URL: 204 with Allow.
//   - X-HTTP-Method-Override: a POST on a URL without POST is checked against its PUT,
//     PATCH and DELETE operations (the harness does not pass request headers here).
//   - A method the URL does not offer (405 + Allow, 501) and URLs that name no operation
//     (404, 406, ...): an error answer, checked against the document's error responses;
//     so are the answers to methods Node's parser refuses (BREW) and to CONNECT.

export { schemaValidator } from './response-schemas.js';

export interface DocumentChecker {
  check(method: string, path: string, answer: Received): void;
}

/** A checker of answers against an OpenAPI document (the served one by default). */
export const documentChecker = (document: Json = defaultOpenApiDocument()): DocumentChecker => {
  const { validate, checkAnswer } = answerChecks(document);
  const jsonpPattern = /^\/\*\*\/([A-Za-z_$][A-Za-z0-9_$.]*)\(([\s\S]*)\);$/;

  return {
    check(method, path, a) {
      const url = new URL(path, 'https://localhost');
      // The path as sent: URL would resolve dot segments (/docs/assets/.. is not /docs to the server).
      const pathname = path.split('?')[0] ?? path;
      const query = url.searchParams;
      // A method Node's parser does not know (BREW), and CONNECT, are answered before the
      // service reads the request: an error, never enveloped.
      if (!METHODS.includes(method) || method === 'CONNECT') {
        checkAnswer(method, pathname, a, true);
        return;
      }
      // A parameter given twice is no answer to "which?": the service takes neither (400, unenveloped).
      const once = (name: string): string | null => (query.getAll(name).length === 1 ? query.get(name) : null);
      const callback = once('callback');
      const validCallback =
        callback !== null &&
        callback.length <= 128 &&
        /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/.test(callback);
      const asked = once('envelope') === 'true' || validCallback;
      const underV1 = pathname.startsWith('/v1/');
      const jsonp = method !== 'HEAD' && validCallback && a.contentType.startsWith('application/javascript');
      let body: unknown = a.json;
      if (jsonp) {
        const m = jsonpPattern.exec(a.text.trim());
        if (m === null || m[1] !== callback)
          throw new Error(`${method} ${path}: not a JSONP call of ${callback}: ${a.text.slice(0, 200)}`);
        if (a.header('x-content-type-options') !== 'nosniff')
          throw new Error(`${method} ${path}: JSONP without X-Content-Type-Options: nosniff`);
        body = JSON.parse(m[2] ?? '') as unknown;
      }
      const looksEnveloped = isObject(body) && 'status_code' in body && 'response' in body && 'next_page' in body;
      // Under /v1 the envelope is required when asked for; the health and documentation
      // endpoints answer before the presentation is read, except for errors.
      // HEAD: the envelope's 200 carries the real status in the body it leaves out.
      if (method === 'HEAD' && asked && a.status === 200) return;
      if (method === 'HEAD' && asked && underV1 && a.status !== 304) {
        if (a.status !== 200) throw new Error(`${method} ${path}: an enveloped answer must be 200, got ${a.status}`);
        return;
      }
      const wrapped = a.status !== 304 && method !== 'HEAD' && asked && (underV1 || looksEnveloped);
      if (!wrapped) {
        checkAnswer(method, pathname, a, true);
        return;
      }
      if (a.status !== 200) throw new Error(`${method} ${path}: an enveloped answer must be 200, got ${a.status}`);
      validate(`${method} ${path}: envelope`, { $ref: '#/components/schemas/Envelope' }, body);
      const envelope = body as { status_code: number; response: unknown };
      const inner: Received = {
        status: envelope.status_code,
        header: a.header,
        json: envelope.response === null ? undefined : envelope.response,
        text: envelope.response === null ? '' : JSON.stringify(envelope.response),
        contentType: envelope.response === null ? '' : 'application/json',
      };
      checkAnswer(method, pathname, inner, true);
    },
  };
};

let documentCheck: DocumentChecker | null = null;

/** Checks every answer the HTTP tests receive (the harness calls it for each one). */
export const responseChecks = {
  check(method: string, path: string, answer: Answer): void {
    if (answer.header('x-request-id') === undefined) throw new Error(`${method} ${path}: answer without X-Request-Id`);
    documentCheck ??= documentChecker();
    documentCheck.check(method.toUpperCase(), path, {
      status: answer.status,
      header: (name) => answer.header(name),
      json: answer.json,
      text: answer.text,
      contentType: answer.header('content-type') ?? '',
    });
  },
};
