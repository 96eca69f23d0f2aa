import { defaultOpenApiDocument } from '@support/adapter-http-koa';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { METHODS } from 'node:http';
import type { Answer } from './answer.js';

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

type Json = Record<string, unknown>;

interface Received {
  readonly status: number;
  readonly header: (name: string) => string | undefined;
  /** The JSON body; undefined when there is none or it is not JSON. */
  readonly json: unknown;
  readonly text: string;
  readonly contentType: string;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A schema of the document made ready for ajv: `$ref`s point into one registered schema;
 * in answers, write-only properties are forbidden (OpenAPI: they are never sent back).
 */
const prepared = (schema: unknown, mode: 'answer' | 'request'): unknown => {
  if (Array.isArray(schema)) return schema.map((s) => prepared(s, mode));
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/components/schemas/', `${schemasId}#/$defs/`);
    else if (k === 'properties' && isObject(v)) {
      out[k] = Object.fromEntries(
        Object.entries(v).map(([name, s]) => [
          name,
          mode === 'answer' && isObject(s) && s.writeOnly === true ? false : prepared(s, mode),
        ]),
      );
    } else out[k] = prepared(v, mode);
  }
  return out;
};

const schemasId = 'https://support.invalid/openapi';

/** Validates values against schemas of the document (JSON Schema 2020-12, ajv + ajv-formats); throws naming every mismatch. */
export const schemaValidator = (
  document: Json,
  mode: 'answer' | 'request',
): ((where: string, schema: unknown, value: unknown) => void) => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  formats.default(ajv);
  ajv.addFormat('password', true);
  const components = (document.components ?? {}) as { schemas?: Json };
  ajv.addSchema({ $id: schemasId, $defs: prepared(components.schemas ?? {}, mode) });
  const compiled = new Map<unknown, ValidateFunction>();
  return (where, schema, value) => {
    let v = compiled.get(schema);
    if (v === undefined) {
      v = ajv.compile(prepared(schema, mode) as Json);
      compiled.set(schema, v);
    }
    if (!v(value))
      throw new Error(
        `${where}: does not match the document: ${ajv.errorsText(v.errors, { separator: '; ' })}\n${JSON.stringify(value).slice(0, 600)}`,
      );
  };
};

export interface DocumentChecker {
  check(method: string, path: string, answer: Received): void;
}

/** A checker of answers against an OpenAPI document (the served one by default). */
export const documentChecker = (document: Json = defaultOpenApiDocument()): DocumentChecker => {
  const components = (document.components ?? {}) as {
    responses?: Record<string, Json>;
    headers?: Record<string, Json>;
  };
  const validate = schemaValidator(document, 'answer');

  const paths = document.paths as Record<string, Record<string, Json>>;
  const templates = Object.keys(paths).map((template) => {
    const segments = template.split('/');
    const source = segments
      .map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return { template, regex: new RegExp(`^${source}$`), literal: segments.filter((s) => !s.startsWith('{')).length };
  });
  /**
   * The documented path for a request path: literal segments win over templates
   * (/v1/users/me). `exact` is false when it was found only without one trailing slash or a
   * .json suffix, which the service may take as the resource's URL (contract §2) or as none.
   */
  const findPath = (pathname: string): { template: string; exact: boolean } | null => {
    const trimmed = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
    // The most literal match over every reading (/v1/tickets/recently_closed.json is the saved search, not a ticket id).
    const matches = [pathname, trimmed, trimmed.replace(/\.json$/i, '')].flatMap((candidate, i) =>
      templates.filter((t) => t.regex.test(candidate)).map((t) => ({ t, i, exact: candidate === pathname })),
    );
    const best = matches.sort((a, b) => b.t.literal - a.t.literal || a.i - b.i)[0];
    return best === undefined ? null : { template: best.t.template, exact: best.exact };
  };

  const resolve = (r: Json): Json => {
    const reference = r.$ref;
    if (typeof reference !== 'string') return r;
    const name = reference.replace('#/components/responses/', '');
    const target = components.responses?.[name];
    if (target === undefined) throw new Error(`the document refers to a missing response ${reference}`);
    return target;
  };

  const checkHeaders = (where: string, response: Json, a: Received): void => {
    for (const [name, given] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const h =
        typeof given.$ref === 'string' ? components.headers?.[given.$ref.replace('#/components/headers/', '')] : given;
      if (h === undefined) throw new Error(`the document refers to a missing header ${String(given.$ref)}`);
      const value = a.header(name);
      if (value === undefined) {
        if (h.required === true) throw new Error(`${where}: the documented header ${name} is missing`);
        continue;
      }
      const schema = h.schema as Json | undefined;
      if (schema === undefined) continue;
      const typed = schema.type === 'integer' && /^-?[0-9]+$/.test(value) ? Number(value) : value;
      validate(`${where}: header ${name}`, schema, typed);
    }
  };

  /** Checks an answer against one documented response. */
  const checkResponse = (
    where: string,
    documented: Json,
    a: Received,
    withBody: boolean,
    withHeaders: boolean,
  ): void => {
    const response = resolve(documented);
    if (withHeaders) checkHeaders(where, response, a);
    if (!withBody || a.status === 304) return;
    const content = response.content as Record<string, Json> | undefined;
    if (content === undefined) {
      if (a.text !== '')
        throw new Error(`${where}: the document says no body, the answer has one: ${a.text.slice(0, 200)}`);
      return;
    }
    const type = a.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const media = Object.entries(content).find(([t]) => t.split(';')[0]?.trim().toLowerCase() === type)?.[1];
    if (media === undefined)
      throw new Error(
        `${where}: Content-Type "${a.contentType}" is not documented (${Object.keys(content).join(', ')})`,
      );
    if (type === 'application/json') validate(`${where}: body`, media.schema, a.json);
  };

  const statusResponse = (responses: Json, status: number): Json | undefined => {
    const exact = responses[String(status)] ?? responses[`${String(status)[0] ?? ''}XX`] ?? responses.default;
    return isObject(exact) ? exact : undefined;
  };

  /** Error responses by status, for answers no operation describes. */
  const errorByStatus = new Map<number, Json>();
  for (const [name, r] of Object.entries(components.responses ?? {})) {
    const status = Number(/Codes: ([0-9]{3})/.exec(String(r.description))?.[1]);
    if (!Number.isNaN(status) && !(status === 403 && name !== 'Forbidden')) errorByStatus.set(status, r);
  }
  const checkUnrouted = (where: string, a: Received, withBody: boolean): void => {
    const r = errorByStatus.get(a.status);
    if (r === undefined) throw new Error(`${where}: status ${a.status} is not one the document lists for any request`);
    checkResponse(where, r, a, withBody, false);
    if (a.status === 405 && a.header('allow') === undefined) throw new Error(`${where}: 405 without Allow`);
  };

  const checkOperation = (
    where: string,
    operation: Json,
    a: Received,
    withBody: boolean,
    withHeaders: boolean,
  ): void => {
    const responses = operation.responses as Json;
    const documented = statusResponse(responses, a.status);
    if (documented === undefined)
      throw new Error(
        `${where}: status ${a.status} is not documented (documented: ${Object.keys(responses).join(', ')})\n${a.text.slice(0, 300)}`,
      );
    checkResponse(`${where} ${a.status}`, documented, a, withBody, withHeaders);
  };

  const checkAnswer = (method: string, pathname: string, a: Received, withHeaders: boolean): void => {
    const where = `${method} ${pathname}`;
    const found = findPath(pathname);
    if (found === null) {
      checkUnrouted(where, a, method !== 'HEAD');
      return;
    }
    if (found.exact) {
      checkTemplate(method, pathname, found.template, a, withHeaders);
      return;
    }
    try {
      checkTemplate(method, pathname, found.template, a, withHeaders);
    } catch (e) {
      try {
        checkUnrouted(where, a, method !== 'HEAD');
      } catch {
        throw e;
      }
    }
  };

  const checkTemplate = (
    method: string,
    pathname: string,
    template: string,
    a: Received,
    withHeaders: boolean,
  ): void => {
    const where = `${method} ${pathname}`;
    const head = method === 'HEAD';
    const withBody = !head;
    const item = paths[template] ?? {};
    const operation = item[head ? 'get' : method.toLowerCase()];
    if (operation !== undefined) {
      checkOperation(`${method} ${template}`, operation, a, withBody, withHeaders);
      return;
    }
    if (method === 'OPTIONS' && a.status === 204) {
      if (a.header('allow') === undefined) throw new Error(`${where}: OPTIONS answered without Allow`);
      return;
    }
    if (method === 'POST') {
      // X-HTTP-Method-Override: the answer of the PUT, PATCH or DELETE it stood for.
      const failures: string[] = [];
      for (const overridden of ['put', 'patch', 'delete']) {
        const o = item[overridden];
        if (o === undefined) continue;
        try {
          checkOperation(`POST as ${overridden.toUpperCase()} ${template}`, o, a, withBody, withHeaders);
          return;
        } catch (e) {
          failures.push(e instanceof Error ? e.message : String(e));
        }
      }
      try {
        checkUnrouted(where, a, withBody);
        return;
      } catch (e) {
        failures.push(e instanceof Error ? e.message : String(e));
      }
      throw new Error(failures.join('\n'));
    }
    checkUnrouted(where, a, withBody);
  };

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
