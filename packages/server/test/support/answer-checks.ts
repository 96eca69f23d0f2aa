import { isObject, schemaValidator, type Json, type Received } from './response-schemas.js';

// How one answer is checked against the operations of an OpenAPI document (response-checks.ts):
// the documented path, the status among its responses, the body by its schema, the required
// headers; answers no operation describes against the document's error responses.

/** The checks on `document`; `checkAnswer` takes an answer as received (envelopes already opened). */
export const answerChecks = (document: Json) => {
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
    const essence = (t: string): string => t.split(';')[0]?.trim().toLowerCase() ?? '';
    // An exact media type, else a range (an attachment's bytes are any type: */*).
    const media =
      Object.entries(content).find(([t]) => essence(t) === type)?.[1] ??
      Object.entries(content).find(
        ([t]) => essence(t) === '*/*' || essence(t) === `${type.split('/')[0] ?? ''}/*`,
      )?.[1];
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

  return { validate, checkAnswer };
};
