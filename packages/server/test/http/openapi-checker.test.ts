import { defaultOpenApiDocument } from '@support/adapter-http-koa';
import { expect } from 'chai';
import { documentChecker } from '../support/response-checks.js';

describe('HTTP: the answer checker catches drift from the document', () => {
  const document = defaultOpenApiDocument();
  const checker = documentChecker(document);
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
  // The document's own sample of a created ticket: every field the document asks for.
  const created = (document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[
    '/v1/tickets'
  ]?.post?.responses['201'] as { content: { 'application/json': { example: Record<string, unknown> } } };
  const ticket = created.content['application/json'].example;
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
