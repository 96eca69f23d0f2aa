import { Validator } from '@seriousme/openapi-schema-validator';
import {
  apiVersions,
  defaultDeprecations,
  defaultOpenApiDocument,
  formatHttpDate,
  openApiDocument,
  servedRoutes,
} from '@support/adapter-http-koa';
import { expect } from 'chai';
import { startApi, type Api } from '../support/harness.js';
import { documentChecker, schemaValidator } from '../support/response-checks.js';

type Json = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** /v1/tickets/:ticketId and /v1/tickets/{ticket_id} both as /v1/tickets/{}. */
const shape = (path: string): string => path.replace(/:[A-Za-z]+/g, '{}').replace(/\{[a-z_]+\}/g, '{}');

const operationsOf = (doc: Json): { method: string; path: string; operation: Json }[] =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    methods.filter((m) => item[m] !== undefined).map((m) => ({ method: m, path, operation: item[m] as Json })),
  );

describe('HTTP: the OpenAPI document', () => {
  let api: Api;
  let served: Json;
  before(async () => {
    api = await startApi();
    const a = await api.get('/v1/openapi.json');
    expect(a.status, a.text).to.equal(200);
    served = a.json as Json;
  });
  after(async () => {
    await api.close();
  });

  it('is served publicly at /v1/openapi.json and is a valid OpenAPI 3.1 document (independent validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(served));
    expect(result.errors ?? [], JSON.stringify(result.errors ?? [], null, 2).slice(0, 2000)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.match(/^3\.1/);
    expect(served.openapi).to.equal('3.1.0');
  });

  it('names this server and is the document the tests check answers against', async () => {
    expect((served.servers as { url: string }[])[0]?.url).to.equal(api.origin);
    expect(served).to.deep.equal(
      openApiDocument({ publicUrl: api.origin, versions: apiVersions, deprecations: defaultDeprecations }),
    );
    const a = await api.get('/v1/openapi.json', {
      headers: { 'If-None-Match': (await api.get('/v1/openapi.json')).header('etag') ?? '' },
    });
    expect(a.status).to.equal(304);
  });

  it('describes every path and method the router serves, and serves every operation it describes', () => {
    const documented = new Set(operationsOf(served).map((o) => `${o.method.toUpperCase()} ${shape(o.path)}`));
    const routed = new Set(
      servedRoutes()
        // HEAD follows GET; OPTIONS (Allow) is answered on every path, not documented per path.
        .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
        .map((r) => `${r.method} ${shape(r.path === '/v1/openapi' ? '/v1/openapi.json' : r.path)}`),
    );
    // Served by the pipeline before the router: health checks and the documentation page.
    const pipeline = ['GET /healthz', 'GET /readyz', 'GET /docs', 'GET /docs/assets/{}'];
    expect([...documented].sort()).to.deep.equal([...routed, ...pipeline].sort());
  });

  it('documents for every operation an example, the status of every error it can answer, and only known error codes', () => {
    for (const { method, path, operation } of operationsOf(served)) {
      const where = `${method} ${path}`;
      const responses = operation.responses as Record<string, Json>;
      const success = Object.keys(responses).filter((s) => s.startsWith('2'));
      expect(success, where).to.have.length(1);
      expect(operation['x-codeSamples'], where).to.be.an('array').that.is.not.empty;
      for (const status of ['400', '429', '500'])
        if (!path.startsWith('/healthz') && !path.startsWith('/readyz') && !path.startsWith('/docs'))
          expect(responses, `${where} ${status}`).to.have.property(status);
      // Revoking a token and rotating a secret are the writes that take no body.
      if (method !== 'get' && method !== 'delete' && !path.endsWith('/revoke') && !path.endsWith('/rotate-secret'))
        expect(operation.requestBody, where).to.be.an('object');
    }
    const codes = (
      served.components as { schemas: { Error: { properties: { code: { oneOf: { const: number }[] } } } } }
    ).schemas.Error.properties.code.oneOf.map((c) => c.const);
    expect(codes).to.include.members([
      40001, 40003, 40101, 40302, 40401, 41001, 41201, 42200, 42901, 43101, 50001, 50301,
    ]);
    expect(served.info).to.have.nested.property('description').that.includes('| 42208 | invalid_transition |');
  });

  it('every example in the document matches its schema', () => {
    const answers = schemaValidator(served, 'answer');
    const requests = schemaValidator(served, 'request');
    let checked = 0;
    for (const { method, path, operation } of operationsOf(served)) {
      const body = operation.requestBody as
        | {
            content: Record<
              string,
              { schema: unknown; example?: unknown; examples?: Record<string, { value: unknown }> }
            >;
          }
        | undefined;
      for (const [type, media] of Object.entries(body?.content ?? {})) {
        const samples =
          media.examples === undefined ? [media.example] : Object.values(media.examples).map((e) => e.value);
        for (const sample of samples) {
          requests(`${method} ${path} request ${type}`, media.schema, sample);
          checked += 1;
        }
      }
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, { content?: Record<string, { schema: unknown; example?: unknown }> }>,
      )) {
        const media = response.content?.['application/json'];
        if (media?.example === undefined) continue;
        answers(`${method} ${path} ${status}`, media.schema, media.example);
        checked += 1;
      }
    }
    for (const [name, response] of Object.entries(
      (
        served.components as {
          responses: Record<string, { content?: { 'application/json': { schema: unknown; example: unknown } } }>;
        }
      ).responses,
    )) {
      if (response.content === undefined) continue;
      answers(name, response.content['application/json'].schema, response.content['application/json'].example);
      checked += 1;
    }
    expect(checked).to.be.greaterThan(60);
  });

  it('publishes the same deprecation schedule in GET /v1/deprecations, the Deprecation/Sunset headers and the description', async () => {
    const token = await api.adminToken();
    const customer = await api.userWithToken('customer');
    const created = await api.post('/v1/tickets', { subject: 'Deprecated path', customer_id: customer.id }, { token });
    const id = (created.json as { id: number }).id;
    const schedule = (await api.get('/v1/deprecations')).json as {
      id: string;
      deprecated_at: string;
      sunset_at: string;
      url: string;
    }[];
    const entry = schedule.find((d) => d.id === 'ticket-singular-alias');
    expect(entry).to.not.equal(undefined);
    const alias = await api.get(`/v1/ticket/${id}`, { token });
    expect(alias.status).to.equal(200);
    expect(alias.header('deprecation')).to.equal(`@${Date.parse(entry!.deprecated_at) / 1000}`);
    expect(alias.header('sunset')).to.equal(formatHttpDate(Date.parse(entry!.sunset_at)));
    expect(alias.header('link')).to.include(`<${entry!.url}>; rel="deprecation"`);
    const plain = await api.get(`/v1/tickets/${id}`, { token });
    expect(plain.header('deprecation')).to.equal(undefined);
    expect(alias.json).to.deep.equal(plain.json);

    const get = (served.paths as Record<string, Record<string, Json>>)['/v1/ticket/{ticket_id}']?.get;
    expect(get?.deprecated).to.equal(true);
    const description = String((served.info as Json).description);
    expect(description).to.include('## Deprecations');
    expect(description).to.include(alias.header('deprecation')!);
    expect(description).to.include(alias.header('sunset')!);
    expect(description).to.include(defaultDeprecations[0]!.sunsetAt);
  });
});

describe('HTTP: the answer checker catches drift from the document', () => {
  const checker = documentChecker(defaultOpenApiDocument());
  const origin = 'https://localhost:8443';
  const headers: Record<string, string> = {
    'x-request-id': 'r1',
    'x-api-version': '1.1',
    'cache-control': 'private, no-cache',
    vary: 'Accept-Encoding, Authorization',
    'x-content-type-options': 'nosniff',
    'x-rate-limit-limit': '5000',
    'x-rate-limit-remaining': '4999',
    'x-rate-limit-reset': '3600',
    etag: '"abc"',
    'last-modified': 'Tue, 06 Jan 2026 09:00:00 GMT',
    location: `${origin}/v1/tickets/7`,
    'content-type': 'application/json; charset=utf-8',
  };
  const ticket = {
    id: 7,
    url: `${origin}/v1/tickets/7`,
    subject: 'Printer on fire',
    summary: '',
    state: 'open',
    priority: 'normal',
    customer: { id: 2, url: `${origin}/v1/users/2` },
    customer_name: 'Ada',
    assigned_user: null,
    group: null,
    tags: [],
    created_at: '2026-01-06T09:00:00.000Z',
    updated_at: '2026-01-06T09:00:00.000Z',
    closed_at: null,
    messages_url: `${origin}/v1/tickets/7/messages`,
    allowed_transitions: ['pending', 'closed'],
  };
  const answer = (status: number, json: unknown, extra: Record<string, string | undefined> = {}) => {
    const all: Record<string, string | undefined> = { ...headers, ...extra };
    return {
      status,
      json,
      text: json === undefined ? '' : JSON.stringify(json),
      contentType: all['content-type'] ?? '',
      header: (n: string) => all[n.toLowerCase()],
    };
  };

  it('accepts an answer the document describes', () => {
    checker.check('POST', '/v1/tickets', answer(201, ticket));
    checker.check('GET', '/v1/tickets/7.json?fields=id,subject', answer(200, { id: 7, subject: 'x' }));
    checker.check(
      'GET',
      '/v1/tickets/7?envelope=true',
      answer(200, {
        status_code: 404,
        next_page: null,
        response: { code: 40402, message: 'Resource not found', description: 'there is no ticket 7' },
      }),
    );
  });

  it('refuses a status the operation does not document', () => {
    expect(() => {
      checker.check('GET', '/v1/tickets/7', answer(418, { code: 41801, message: 'teapot', description: '' }));
    }).to.throw(/status 418 is not documented/);
    expect(() => {
      checker.check('POST', '/v1/tickets', answer(200, ticket));
    }).to.throw(/status 200 is not documented/);
  });

  it('refuses a body missing a required field, with an unknown field, or carrying a write-only one', () => {
    const { subject: _subject, ...withoutSubject } = ticket;
    expect(() => {
      checker.check('POST', '/v1/tickets', answer(201, withoutSubject));
    }).to.throw(/must have required property 'subject'/);
    expect(() => {
      checker.check('PATCH', '/v1/tickets/7', answer(200, { ...ticket, colour: 'red' }));
    }).to.throw(/must NOT have additional properties/);
    const user = {
      id: 2,
      url: `${origin}/v1/users/2`,
      name: 'Ada',
      email: 'ada@example.com',
      role: 'customer',
      groups: [],
      created_at: ticket.created_at,
      updated_at: ticket.updated_at,
    };
    checker.check('GET', '/v1/users/me', answer(200, user));
    expect(() => {
      checker.check('GET', '/v1/users/me', answer(200, { ...user, password: 'secret-password' }));
    }).to.throw(/password/);
    expect(() => {
      checker.check('GET', '/v1/tickets/7', answer(404, { code: 40499, message: 'Not found', description: 'x' }));
    }).to.throw(/does not match/);
  });

  it('refuses an answer without a documented required header, and a header value off its schema', () => {
    expect(() => {
      checker.check('POST', '/v1/tickets', answer(201, ticket, { location: undefined }));
    }).to.throw(/header Location is missing/);
    expect(() => {
      checker.check('GET', '/v1/tickets', answer(200, [ticket], { link: undefined, 'x-total-count': '1' }));
    }).to.throw(/header Link is missing/);
    expect(() => {
      checker.check('GET', '/v1/tickets/7', answer(200, ticket, { 'x-rate-limit-reset': 'soon' }));
    }).to.throw(/X-Rate-Limit-Reset/);
  });

  it('looks inside envelopes and JSONP, and checks answers of URLs no operation describes', () => {
    expect(() => {
      checker.check(
        'GET',
        '/v1/tickets/7?envelope=true',
        answer(200, { status_code: 200, next_page: null, response: { ...ticket, id: 'seven' } }),
      );
    }).to.throw(/does not match/);
    expect(() => {
      checker.check(
        'GET',
        '/v1/tickets/7?envelope=true',
        answer(404, { code: 40402, message: 'Resource not found', description: 'x' }),
      );
    }).to.throw(/must be 200/);
    const js = `/**/cb(${JSON.stringify({ status_code: 200, next_page: null, response: ticket })});`;
    checker.check('GET', '/v1/tickets/7?callback=cb', {
      ...answer(200, undefined, { 'content-type': 'application/javascript; charset=utf-8' }),
      text: js,
    });
    expect(() => {
      checker.check('GET', '/v1/nothing', answer(200, {}));
    }).to.throw(/status 200 is not one the document lists/);
    expect(() => {
      checker.check(
        'PUT',
        '/v1/tickets',
        answer(405, { code: 40501, message: 'Method not allowed', description: 'x' }),
      );
    }).to.throw(/405 without Allow/);
  });
});
