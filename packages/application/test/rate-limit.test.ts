import type { UserId } from '@support/domain';
import { expect } from 'chai';
import { world } from './support/world.js';

// Whose counter a request hits (rate-limit.ts).

describe('the rate limit counters', () => {
  it('counts each user and each address apart', async () => {
    const w = await world({ rateLimit: 20 });
    const one = { kind: 'user', userId: 1 as UserId } as const;
    for (let i = 0; i < 3; i++) await w.app.rateLimit.consume(one);
    expect((await w.app.rateLimit.consume({ kind: 'user', userId: 2 as UserId })).remaining).to.equal(19);
    expect((await w.app.rateLimit.consume({ kind: 'ip', ip: '1' })).remaining, 'an address is not user 1').to.equal(1);
    expect((await w.app.rateLimit.consume(one)).remaining).to.equal(16);
    expect((await w.app.rateLimit.consume({ kind: 'ip', ip: '2' })).remaining).to.equal(1);
  });
});
