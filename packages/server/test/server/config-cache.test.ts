import { expect } from 'chai';
import { ConfigError, configFromEnv } from '../../src/index.js';

describe('server: RESPONSE_CACHE_BYTES', () => {
  it('is absent unless set: the HTTP adapter then keeps its default budget', () => {
    expect(configFromEnv({})).to.not.have.property('responseCacheBytes');
  });

  it('reads a byte budget, 0 turning the cache off', () => {
    expect(configFromEnv({ RESPONSE_CACHE_BYTES: '1048576' }).responseCacheBytes).to.equal(1_048_576);
    expect(configFromEnv({ RESPONSE_CACHE_BYTES: '0' }).responseCacheBytes).to.equal(0);
  });

  for (const bad of ['-1', '64MB', '1e6', '', '2000000000000']) {
    it(`refuses ${JSON.stringify(bad)} naming the variable`, () => {
      expect(() => configFromEnv({ RESPONSE_CACHE_BYTES: bad })).to.throw(ConfigError, /RESPONSE_CACHE_BYTES/);
    });
  }
});
