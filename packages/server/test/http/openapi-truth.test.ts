import { defaultOpenApiDocument } from '@support/adapter-http-koa';
import { expect } from 'chai';
import { suiteApi } from '../support/suite-api.js';
import { expectError } from '../support/http-conventions.js';

// What the document promises, the server does (issue 24, items 7-12: where Schemathesis found
// the document and the server disagreeing). Each test reads the document and sends the request
// that showed the difference.

type Json = Record<string, unknown>;

const doc = defaultOpenApiDocument();
const components = doc.components as { parameters: Record<string, Json>; schemas: Record<string, Json> };
const operations = Object.values(doc.paths as Record<string, Record<string, Json>>).flatMap((item) =>
  Object.values(item),
);

describe('HTTP: the document says what the server does (Schemathesis, issue 24)', () => {
  let admin: string;
  const api = suiteApi({ STORE: 'memory' });
  before(async () => {
    admin = await api.adminToken();
  });

  it('7: leaves envelope and callback out of the operations and documents them in one section, with examples', () => {
    const refs = JSON.stringify(operations.map((o) => o.parameters));
    expect(refs).not.to.match(/Envelope|Callback/);
    expect(components.parameters).not.to.have.any.keys('Envelope', 'Callback');
    expect(JSON.stringify(operations.map((o) => o.responses))).not.to.include('application/javascript');
    const description = (doc.info as Json).description as string;
    const section = description.slice(description.indexOf('## Envelope and JSONP'));
    expect(section)
      .to.include('envelope=true')
      .and.include('callback=<name>')
      .and.include('GET /v1/tickets/999?envelope=true');
    expect(components.schemas).to.have.property('Envelope');
  });

  it('4 and 8: list parameters say minItems 1 and uniqueItems, and the server refuses an empty list or a repeat, naming it', async () => {
    for (const name of ['State', 'Fields', 'Embed']) {
      expect(components.parameters[name]?.schema, name).to.deep.include({ minItems: 1, uniqueItems: true });
    }
    for (const [query, field] of [
      ['fields=', 'fields'],
      ['embed=', 'embed'],
      ['state=', 'state'],
      ['state=pending,open,pending', 'state'],
      ['fields=id,id', 'fields'],
      ['embed=customer,customer', 'embed'],
      ['sort=subject,subject', 'sort'],
    ] as const) {
      const a = await api.get(`/v1/tickets?${query}`, { token: admin });
      expectError(a, 400, 40001);
      expect(
        (a.json as { errors: { field: string }[] }).errors.map((e) => e.field),
        query,
      ).to.deep.equal([field]);
    }
  });

  it('9: the sort pattern refuses a field twice in either direction, as the server does', async () => {
    const pattern = new RegExp((components.parameters.Sort?.schema as { pattern: string }).pattern, 'u');
    for (const ok of ['-priority,created_at', 'subject', '+id', 'state,updated_at,-closed_at'])
      expect(pattern.test(ok), ok).to.equal(true);
    for (const bad of ['subject,-subject', 'id,subject,id', '+state,-state', 'subject,subject']) {
      expect(pattern.test(bad), bad).to.equal(false);
      expectError(await api.get(`/v1/tickets?sort=${bad.replace(/\+/g, '%2B')}`, { token: admin }), 400, 40001);
    }
  });

  it('10: TicketCreate.customer_id says agents and admins must give it', async () => {
    const create = components.schemas.TicketCreate as { properties: Record<string, { description: string }> };
    const said = create.properties.customer_id?.description ?? '';
    expect(said).not.to.include('Default: the caller');
    expect(said).to.include('Required when an agent or admin creates a ticket');
    const a = await api.post('/v1/tickets', { subject: 'No customer' }, { token: admin });
    expect(a.status).to.equal(422);
    expect((a.json as { errors: { code: number; field: string }[] }).errors).to.deep.include({
      code: 42201,
      field: 'customer_id',
      message: 'is required when an agent or admin creates a ticket',
    });
  });

  it('11: token and revoke bodies: other parameters are ignored whatever they hold (RFC 6749 §3.2), token_type_hint any string', async () => {
    const token = components.schemas.TokenRequest as { oneOf: Json[] };
    for (const branch of token.oneOf) expect(branch.additionalProperties).to.equal(true);
    const revoke = components.schemas.RevokeRequest as {
      additionalProperties: unknown;
      properties: Record<string, Json>;
    };
    expect(revoke.additionalProperties).to.equal(true);
    expect(revoke.properties.token_type_hint).not.to.have.property('enum');
    const grant = { grant_type: 'password', username: 'admin@example.com', password: 'admin-password-1' };
    // (scope is a parameter the token endpoint reads, contract §8.2; audience is not.)
    expect((await api.post('/v1/oauth/token', { ...grant, audience: 'anything' })).status).to.equal(200);
    expect((await api.post('/v1/oauth/token', { ...grant, audience: 7, 'a[b': { c: 1 } })).status).to.equal(200);
    expectError(await api.post('/v1/oauth/token', { ...grant, password: ['a', 'b'] }), 400, 40010);
    const form = { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
    expect((await api.post('/v1/oauth/revoke', 'token=not-a-token&x%5By=1&z.w=2', form)).status).to.equal(200);
    expect((await api.post('/v1/oauth/revoke', { token: 'not-a-token', token_type_hint: 'id_token' })).status).to.equal(
      200,
    );
    expect((await api.post('/v1/oauth/revoke', { token: 'not-a-token', extra: ['a'] })).status).to.equal(200);
    expectError(await api.post('/v1/oauth/revoke', { token: ['a', 'b'] }), 400, 40010);
  });

  it("12: every parameter example runs quickly (the long poll's wait example holds at most a second)", () => {
    expect(components.parameters.Wait?.example).to.be.at.most(1);
  });
  it('found on the way: the token has one documented place per way (no access_token parameter beside the accessToken scheme)', async () => {
    expect(JSON.stringify(operations.map((o) => o.parameters))).not.to.include('AccessToken');
    expect((doc.components as { securitySchemes: Json }).securitySchemes).to.have.property('accessToken');
    expectError(await api.get(`/v1/users/me?access_token=${encodeURIComponent(admin)}`, { token: admin }), 400, 40005);
    expect((await api.get(`/v1/users/me?access_token=${encodeURIComponent(admin)}`)).status).to.equal(200);
  });

  it('found on the way: X-Request-Id is any string; one the server cannot use is replaced, never refused', async () => {
    expect(components.parameters.RequestId?.schema).to.deep.equal({ type: 'string' });
    const a = await api.get('/v1/users/me', { token: admin, headers: { 'X-Request-Id': 'not usable!' } });
    expect(a.status).to.equal(200);
    expect(a.header('x-request-id'))
      .to.match(/^[A-Za-z0-9._-]{1,128}$/)
      .and.not.equal('not usable!');
  });

  it('found on the way: TRACE and QUERY on a known URL are 405 with Allow, as any method it does not offer', async () => {
    for (const method of ['TRACE', 'QUERY']) {
      const a = await api.request(method, '/v1/tickets', { token: admin });
      expectError(a, 405, 40501);
      expect(a.header('allow'), method).to.include('GET').and.include('POST');
    }
    expect((await api.request('TRACE', '/v1/nowhere', { token: admin })).status).to.equal(404);
  });

  it("found on the way: page's maximum is the deepest page of per_page=1 (10000), which the server takes", async () => {
    expect((components.parameters.Page?.schema as { maximum: number }).maximum).to.equal(10_000);
    expect((await api.get('/v1/tickets?page=10000&per_page=1', { token: admin })).status).to.equal(200);
    expectError(await api.get('/v1/tickets?page=10001&per_page=1', { token: admin }), 400);
  });
});
