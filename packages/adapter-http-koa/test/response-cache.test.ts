import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { ownTextBytes } from '../src/cache/own-bytes.js';
import { responseCache, type CachedAnswer } from '../src/cache/response-cache.js';

// The response cache's bookkeeping: what it keeps, for which version, within which budget.
// (That answers stay right under concurrent writes is tested over HTTPS, in the server's tests.)

const answer = (body: string): CachedAnswer => ({
  etag: `"${body}"`,
  lastModified: null,
  bytes: Buffer.from(body),
  gzipped: null,
});
const kilobyte = (tag: string): CachedAnswer => answer(tag.padEnd(1000, '.'));

describe('response cache', () => {
  it('answers what was kept under a key, and nothing under another', () => {
    const cache = responseCache(1 << 20);
    const a = answer('one');
    expect(cache.set('k1', a, null)).to.equal(true);
    expect(cache.get('k1')).to.equal(a);
    expect(cache.get('k2')).to.equal(undefined);
  });

  it('drops the entries of older versions when a newer version of the resource is kept', () => {
    const cache = responseCache(1 << 20);
    cache.set('ticket 1 v1 pretty', answer('a'), { of: 'ticket:1', is: 1 });
    cache.set('ticket 1 v1 compact', answer('b'), { of: 'ticket:1', is: 1 });
    cache.set('ticket 2 v1', answer('c'), { of: 'ticket:2', is: 1 });
    expect(cache.size).to.equal(3);
    cache.set('ticket 1 v2 pretty', answer('d'), { of: 'ticket:1', is: 2 });
    expect(cache.get('ticket 1 v1 pretty')).to.equal(undefined);
    expect(cache.get('ticket 1 v1 compact')).to.equal(undefined);
    expect(cache.get('ticket 2 v1')?.etag).to.equal('"c"');
    expect(cache.get('ticket 1 v2 pretty')?.etag).to.equal('"d"');
    expect(cache.size).to.equal(2);
  });

  it('does not keep an older version read late, next to a newer one', () => {
    const cache = responseCache(1 << 20);
    cache.set('ticket 1 v3', answer('new'), { of: 'ticket:1', is: 3 });
    expect(cache.set('ticket 1 v2', answer('old'), { of: 'ticket:1', is: 2 })).to.equal(false);
    expect(cache.get('ticket 1 v2')).to.equal(undefined);
    expect(cache.get('ticket 1 v3')?.etag).to.equal('"new"');
  });

  it('stays within its byte budget, evicting the least recently used first', () => {
    const cache = responseCache(30_000);
    for (let i = 0; i < 8; i++) cache.set(`k${i}`, kilobyte(`k${i}`), { of: `ticket:${i}`, is: 1 });
    expect(cache.get('k0')).to.not.equal(undefined); // k0 is now the most recently used
    for (let i = 8; i < 20; i++) cache.set(`k${i}`, kilobyte(`k${i}`), { of: `ticket:${i}`, is: 1 });
    expect(cache.bytes).to.be.at.most(30_000);
    expect(cache.get('k19')).to.not.equal(undefined);
    expect(cache.get('k1')).to.equal(undefined);
    // Recency, not insertion, decides: k0 was used after k1..k7 were kept.
    expect(cache.size).to.be.greaterThan(5);
  });

  it('counts a gzip made later, and evicts for it', () => {
    const cache = responseCache(10_000);
    const a = kilobyte('a');
    cache.set('a', a, null);
    for (const k of ['b', 'c', 'd']) cache.set(k, kilobyte(k), null);
    cache.get('a');
    const before = cache.bytes;
    expect(before).to.be.greaterThan(10_000 - 1500);
    cache.addGzip('a', a, Buffer.alloc(1500, 7));
    expect(cache.bytes).to.be.at.most(10_000);
    expect(cache.get('b')).to.equal(undefined);
    expect(cache.get('a')?.gzipped?.length).to.equal(1500);
    expect(cache.get('a')?.bytes.toString()).to.equal('a'.padEnd(1000, '.'));
  });

  it('keeps an answer and its gzip in one memory block; an answer no longer kept just takes its gzip', () => {
    const cache = responseCache(100_000);
    const a = kilobyte('a');
    cache.set('a', a, null);
    cache.addGzip('a', a, gzipSync(a.bytes));
    expect(a.bytes.buffer).to.equal(a.gzipped?.buffer);
    expect(a.bytes.buffer.byteLength).to.equal(a.bytes.length + (a.gzipped?.length ?? 0));
    expect(a.bytes.toString()).to.equal('a'.padEnd(1000, '.'));
    const gone = kilobyte('gone');
    const before = cache.bytes;
    cache.addGzip('gone', gone, Buffer.alloc(10));
    expect(gone.gzipped?.length).to.equal(10);
    expect(cache.bytes).to.equal(before);
  });

  it('keeps nothing with a budget of 0, and no single entry over a quarter of the budget', () => {
    expect(responseCache(0).set('k', answer('x'), null)).to.equal(false);
    const cache = responseCache(4_000);
    expect(cache.set('big', kilobyte('big'), null)).to.equal(false);
    expect(cache.bytes).to.equal(0);
  });

  it('forgets a resource once its last entry is evicted: memory is bounded by the budget, not by the resources seen', () => {
    const cache = responseCache(50_000);
    for (let i = 0; i < 5_000; i++) cache.set(`ticket ${i}`, answer(`t${i}`), { of: `ticket:${i}`, is: 1 });
    expect(cache.bytes).to.be.at.most(50_000);
    expect(cache.size).to.be.lessThan(300);
    // An evicted resource can be kept again at any version: nothing remembers its old one.
    expect(cache.set('ticket 0 again', answer('t0'), { of: 'ticket:0', is: 1 })).to.equal(true);
  });

  it('keeps text bytes in a block of their own: a kept slice of the shared pool would hold its whole block', () => {
    expect(Buffer.from('z'.repeat(300)).buffer.byteLength).to.be.greaterThan(300); // what Node hands out
    for (const own of [ownTextBytes('y'.repeat(600)), ownTextBytes('z'.repeat(300))]) {
      expect(own.byteOffset).to.equal(0);
      expect(own.buffer.byteLength).to.equal(own.length);
    }
    expect(ownTextBytes('é€').toString('utf8')).to.equal('é€');
  });
});
