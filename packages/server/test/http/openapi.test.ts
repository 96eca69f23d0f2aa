import { Validator } from '@seriousme/openapi-schema-validator';
import {
  apiVersions,
  defaultDeprecations,
  formatHttpDate,
  openApiDocument,
  servedRoutes,
} from '@support/adapter-http-koa';
import { expect } from 'chai';
import { suiteApi } from '../support/suite-api.js';
import { schemaValidator } from '../support/response-checks.js';

type Json = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** /v1/tickets/:ticketId and /v1/tickets/{ticket_id} both as /v1/tickets/{}. */
const shape = (path: string): string => path.replace(/:[A-Za-z]+/g, '{}').replace(/\{[a-z_]+\}/g, '{}');

const operationsOf = (doc: Json): { method: string; path: string; operation: Json }[] =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    methods.filter((m) => item[m] !== undefined).map((m) => ({ method: m, path, operation: item[m] as Json })),
  );

describe('HTTP: the OpenAPI document', () => {
  let served: Json;
  const api = suiteApi();
  before(async () => {
    const a = await api.get('/v1/openapi.json');
    expect(a.status, a.text).to.equal(200);
    served = a.json as Json;
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
      // One success, and a 206 beside it for the bytes of an attachment (Range).
      const success = Object.keys(responses).filter((s) => s.startsWith('2') && s !== '206');
      expect(success, where).to.have.length(1);
      if ('206' in responses) expect(path, where).to.match(/\/content$/);
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
