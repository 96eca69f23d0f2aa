import fc from 'fast-check';
import type { Operation } from './operations.js';
import type { SchemaResolver } from './schema-values.js';
import { weighted, type FuzzRequest, type Role, type Segment, type TokenVia } from './request-parts.js';
import { queryParameter, segment, unknownParameters } from './request-urls.js';
import { extraHeaders, headerParameter } from './request-headers.js';
import { bodyPlan } from './request-bodies.js';

// A request for one operation of the document, as fast-check generates it (and shrinks it):
// who sends it and how the token travels, the method (now and then one the path does not
// offer), each path segment (a fixture, or a text that is no id), the query (each
// documented parameter left out, valid, on a bound, refused, repeated or bracketed like an
// object, plus unknown ones), the headers (the documented ones, Accept, method override,
// a repeated Idempotency-Key) and the body (valid by its schema, mutated, not JSON at all,
// in another encoding or media type, gzipped, over the size limit).

export type { Body, BodyPlan, FuzzRequest, HeaderValue, Role, Segment, TokenVia } from './request-parts.js';

const otherMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const methodOf = (op: Operation): fc.Arbitrary<string> =>
  weighted(
    [60, fc.constant(op.method)],
    [2, fc.constant(op.method === 'GET' ? 'HEAD' : 'OPTIONS')],
    [1, fc.constant('OPTIONS')],
    [2, fc.constantFrom(...otherMethods.filter((m) => m !== op.method))],
    // CONNECT has its own test (errors.test.ts): Node's client never hands its answer over as a response.
    [1, fc.constantFrom('BREW', 'TRACE', 'PROPFIND', 'M-SEARCH')],
  );

/** Requests for one operation of the document. */
export const requestsFor = (op: Operation, resolve: SchemaResolver): fc.Arbitrary<FuzzRequest> => {
  const segments = fc.tuple(
    ...op.template
      .split('/')
      .slice(1)
      .map((part): fc.Arbitrary<Segment> => {
        const m = /^\{(.+)\}$/.exec(part);
        const p = m === null ? undefined : op.parameters.find((x) => x.in === 'path' && x.name === m[1]);
        // Now and then a literal in another case: /V1/Tickets names no resource (paths are case-sensitive).
        const literal = weighted<Segment>(
          [30, fc.constant({ literal: part })],
          [
            1,
            fc.constantFrom(
              { literal: part.toUpperCase() },
              { literal: `${part.charAt(0).toUpperCase()}${part.slice(1)}` },
            ),
          ],
        );
        return p === undefined ? literal : segment(p, resolve);
      }),
  );
  const query = fc
    .tuple(
      ...op.parameters
        .filter((p) => p.in === 'query' && p.name !== 'access_token')
        .map((p) => queryParameter(p, resolve)),
      unknownParameters,
    )
    .map((parts) => parts.flat());
  const headers = fc
    .tuple(
      ...op.parameters.filter((p) => p.in === 'header').map((p) => headerParameter(p, resolve)),
      extraHeaders(op.method),
    )
    .map((parts) => parts.flat());
  return fc.record({
    role: weighted<Role>(
      [3, fc.constant('admin')],
      [2, fc.constant('agent')],
      [3, fc.constant('customer')],
      [2, fc.constant('personal')],
      [1, fc.constant('none')],
      [1, fc.constant('stranger')],
    ),
    personal: fc.nat(1_000),
    via: weighted<TokenVia>([6, fc.constant('bearer')], [2, fc.constant('basic')], [2, fc.constant('query')]),
    method: methodOf(op),
    segments,
    suffix: weighted([20, fc.constant('')], [1, fc.constantFrom('.json', '/', '.xml', '.JSON', '//', '%2Ejson')]),
    query,
    headers,
    body: bodyPlan(op, resolve),
  });
};
