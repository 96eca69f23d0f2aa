import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, page, rightOf, world } from './support/world.js';

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
    for (const bad of [
      `${made.token.slice(0, -1)}${last}`,
      made.token.slice(0, -1),
      `${made.token}0`,
      `stp_${'!'.repeat(46)}`,
    ]) {
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

describe('use cases: managing personal access tokens', () => {
  const tagOf = (r: E.Either<{ readonly _tag: string }, unknown>): string => (E.isLeft(r) ? r.left._tag : 'Right');

  it('lists, reads and revokes the caller\'s own tokens, as "me" or by their id', async () => {
    const w = await world();
    const agent = await w.agent();
    const first = rightOf(
      await w.app.tokens.create(agent, decoded({ name: 'One', scopes: ['tickets:write', 'tickets:read'] })),
    );
    const second = rightOf(await w.app.tokens.create(agent, decoded({ name: 'Two', scopes: ['events:read'] })));
    expect(first.record.scopes, 'in canonical order').to.deep.equal(['tickets:read', 'tickets:write']);
    expect(first.record.userId).to.equal(agent.user.id);
    expect(second.record.id).to.not.equal(first.record.id);
    for (const owner of ['me', agent.user.id] as const) {
      const list = rightOf(await w.app.tokens.list(agent, owner, page()));
      expect(list.items.map((t) => t.name)).to.have.members(['One', 'Two']);
      expect(list.total).to.equal(2);
      expect(list.page).to.deep.equal({ page: 1, perPage: 30 });
      expect(rightOf(await w.app.tokens.get(agent, owner, first.record.id)).name).to.equal('One');
    }
    expect(rightOf(await w.app.tokens.revoke(agent, 'me', second.record.id)).name).to.equal('Two');
    expect(tagOf(await w.app.auth.authenticate(second.token)), 'revoked at once').to.equal('Unauthenticated');
    expect(rightOf(await w.app.tokens.list(agent, 'me', page())).items.map((t) => t.name)).to.deep.equal(['One']);
    expect(tagOf(await w.app.tokens.revoke(agent, 'me', 999))).to.equal('NotFound');
  });

  it("admins read and revoke anyone's; others are refused another user's, customers as if no such user", async () => {
    const w = await world();
    const agent = await w.agent();
    const customer = await w.customer();
    const made = rightOf(await w.app.tokens.create(agent, decoded({ name: 'Agent bot', scopes: ['tickets:read'] })));
    expect(rightOf(await w.app.tokens.list(w.admin, agent.user.id, page())).total).to.equal(1);
    expect(rightOf(await w.app.tokens.get(w.admin, agent.user.id, made.record.id)).name).to.equal('Agent bot');
    expect(tagOf(await w.app.tokens.get(w.admin, 'me', made.record.id)), "not the admin's own token").to.equal(
      'NotFound',
    );
    expect(tagOf(await w.app.tokens.get(w.admin, customer.user.id, made.record.id)), "not that user's token").to.equal(
      'NotFound',
    );
    expect(tagOf(await w.app.tokens.list(w.admin, 999 as never, page())), 'no such user').to.equal('NotFound');
    const other = await w.agent();
    expect(tagOf(await w.app.tokens.list(other, agent.user.id, page()))).to.equal('Forbidden');
    expect(tagOf(await w.app.tokens.revoke(other, agent.user.id, made.record.id))).to.equal('Forbidden');
    expect(tagOf(await w.app.tokens.list(customer, agent.user.id, page()))).to.equal('NotFound');
    expect(rightOf(await w.app.tokens.revoke(w.admin, agent.user.id, made.record.id)).id).to.equal(made.record.id);
    expect(tagOf(await w.app.auth.authenticate(made.token))).to.equal('Unauthenticated');
  });

  it('refuses a token with no scope, a refused body and a refused page query, storing nothing', async () => {
    const w = await world();
    const agent = await w.agent();
    const none = await w.app.tokens.create(agent, decoded({ name: 'Nothing', scopes: [] }));
    expect(
      E.isLeft(none) && none.left._tag === 'ValidationFailed' && none.left.errors.map((e) => [e.field, e.code]),
    ).to.deep.equal([['scopes', 'invalid_length']]);
    const refused = await w.app.tokens.create(
      agent,
      E.left({ errors: [{ field: 'name', code: 'required', message: 'is required' }], given: [] }),
    );
    expect(tagOf(refused)).to.equal('ValidationFailed');
    expect(
      tagOf(
        await w.app.tokens.list(
          agent,
          'me',
          E.left([{ parameter: 'page', code: 'invalid_value', message: 'x' }] as never),
        ),
      ),
    ).to.equal('InvalidQuery');
    expect(rightOf(await w.app.tokens.list(agent, 'me', page())).total).to.equal(0);
  });
});
