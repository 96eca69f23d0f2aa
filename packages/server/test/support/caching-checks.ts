import { expect } from 'chai';
import type { Answer } from './harness.js';

// What the caching suites (http/caching*.test.ts) check of an answer.

export const strongTag = /^"[^"\s]+"$/;

export const etagOf = (a: Answer): string => {
  const tag = a.header('etag');
  expect(tag, `no ETag on ${a.status}`).to.be.a('string');
  return tag ?? '';
};

export const expectNotModified = (a: Answer, etag?: string): void => {
  expect(a.status, a.text).to.equal(304);
  expect(a.raw.length).to.equal(0);
  expect(a.header('content-type')).to.equal(undefined);
  if (etag !== undefined) expect(a.header('etag')).to.equal(etag);
};
