import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, rightOf, world } from './support/world.js';

// Personal access tokens in the use cases: a malformed token is refused before any store
// call (its checksum), a well-formed one costs one lookup by hash, and the actor it makes
// carries the token's id, name and scopes.

describe('use cases: personal access tokens', () => {
  it('refuses a mistyped token without a store lookup; a good one is one lookup, its actor narrowed and named', async () => {
    const w = await world();
    const made = rightOf(await w.app.tokens.create(w.admin, decoded({ name: 'Bot', scopes: ['tickets:read'] })));
    let lookups = 0;
    const tokens = w.ports.personalTokens;
    const findByHash = tokens.findByHash.bind(tokens);
    tokens.findByHash = (hash, now) => {
      lookups += 1;
      return findByHash(hash, now);
    };
    const last = made.token.at(-1) === 'A' ? 'B' : 'A';
    for (const bad of [`${made.token.slice(0, -1)}${last}`, made.token.slice(0, -1), `${made.token}0`, `stp_${'!'.repeat(46)}`]) {
      const r = await w.app.auth.authenticate(bad);
      expect(E.isLeft(r) && r.left._tag, bad).to.equal('Unauthenticated');
    }
    expect(lookups, 'a malformed personal token costs no store call').to.equal(0);
    const actor = rightOf(await w.app.auth.authenticate(made.token));
    expect(lookups).to.equal(1);
    expect(actor.token).to.deep.equal({ id: made.record.id, name: 'Bot' });
    expect(actor.scopes).to.deep.equal(['tickets:read']);
    expect(made.record.hash, 'the store keeps the digest').to.equal(w.ports.secrets.digest(made.token));
  });
});
