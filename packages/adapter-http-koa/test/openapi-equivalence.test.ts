import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { defaultOpenApiDocument } from '../src/openapi/served-document.js';

// The derived document (issue 34: operations declared where routes are registered, schemas
// from the codecs and the field tables) must serve what the hand-built one served: every
// path and method, each operation's parameters, security, bodies and answers, and every
// component (schemas, parameters, responses, headers). The reference is the hand-built
// document as served before the change (scripts/openapi-snapshot.mjs wrote it).

const reference = JSON.parse(
  readFileSync(new URL('../../test/fixtures/openapi-before.json', import.meta.url), 'utf8'),
) as unknown;

const shown = (v: unknown): string => (v === undefined ? 'undefined' : JSON.stringify(v).slice(0, 120));

/** Every place where the two values differ, as JSON-pointer-like paths (at most `limit`). */
const differences = (a: unknown, b: unknown, at = '', out: string[] = [], limit = 20): string[] => {
  if (out.length >= limit) return out;
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
    out.push(`${at}: ${shown(a)} ≠ ${shown(b)}`);
    return out;
  }
  if (typeof a === 'object' && a !== null && b !== null) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    // JSON objects are unordered: the same keys in another order are the same object.
    const keysA = Object.keys(ra).sort();
    const keysB = Object.keys(rb).sort();
    if (!Array.isArray(a) && keysA.join('\u0000') !== keysB.join('\u0000'))
      out.push(`${at}: keys [${keysA.join(', ')}] ≠ [${keysB.join(', ')}]`);
    for (const k of new Set([...keysA, ...keysB])) differences(ra[k], rb[k], `${at}/${k}`, out, limit);
    return out;
  }
  if (a !== b) out.push(`${at}: ${shown(a)} ≠ ${shown(b)}`);
  return out;
};

describe('the derived OpenAPI document', () => {
  const served = JSON.parse(JSON.stringify(defaultOpenApiDocument())) as Record<string, unknown>;
  const before = reference as Record<string, unknown>;

  it('has the same paths, methods, parameters, bodies and answers as the hand-built one', () => {
    expect(differences(served.paths, before.paths, '/paths')).to.deep.equal([]);
  });

  it('has the same components (schemas, parameters, responses, headers, security schemes)', () => {
    expect(differences(served.components, before.components, '/components')).to.deep.equal([]);
  });

  it('is the same document altogether (info, tags, servers, security)', () => {
    expect(differences(served, before)).to.deep.equal([]);
  });
});
