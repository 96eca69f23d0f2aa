import type { GroupId } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, email, embed, leftOf, page, rightOf, world } from './support/world.js';

// What a change to a user makes due elsewhere (its follow-ups), and the checks of a user's
// write that the role matrix's tests leave out: e-mail uniqueness on a change, groups.

const codes = (e: { readonly _tag: string }): [string, string][] =>
  e._tag === 'ValidationFailed'
    ? (e as unknown as { errors: { field: string; code: string }[] }).errors.map((f) => [f.field, f.code])
    : [];

describe('user writes and their follow-ups', () => {
  it('renaming a customer renames them on their tickets; another change does not touch the tickets', async () => {
    const w = await world();
    const alice = await w.customer('Alice');
    const id = await w.ticket(alice);
    const before = rightOf(await w.app.tickets.get(w.admin, id, embed())).ticket;
    rightOf(await w.app.users.patch(w.admin, alice.user.id, decoded({ password: 'another password' })));
    expect(
      rightOf(await w.app.tickets.get(w.admin, id, embed())).ticket.version,
      'a password change is not a rename',
    ).to.equal(before.version);
    rightOf(await w.app.users.patch(alice, 'me', decoded({ name: 'Alice Liddell' })));
    expect(rightOf(await w.app.tickets.get(w.admin, id, embed())).ticket.customerName).to.equal('Alice Liddell');
  });

  it('an agent made a customer leaves their tickets; a customer made an agent, or an agent renamed, does not', async () => {
    const w = await world();
    const alice = await w.customer();
    const [agent, other] = [await w.agent('Agent A'), await w.agent('Agent B')];
    const id = await w.ticket(alice, { assignedUserId: agent.user.id });
    const kept = await w.ticket(alice, { assignedUserId: other.user.id });
    rightOf(await w.app.users.patch(w.admin, other.user.id, decoded({ name: 'Agent B2', role: 'admin' })));
    expect(rightOf(await w.app.tickets.get(w.admin, kept, embed())).ticket.assignedUserId).to.equal(other.user.id);
    rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ role: 'customer' })));
    expect(rightOf(await w.app.tickets.get(w.admin, id, embed())).ticket.assignedUserId).to.equal(null);
    const promoted = await w.customer();
    rightOf(await w.app.users.patch(w.admin, promoted.user.id, decoded({ role: 'agent' })));
    expect(rightOf(await w.app.users.get(w.admin, promoted.user.id)).role).to.equal('agent');
  });

  it('any password change ends the sessions and personal tokens of the user, but the session that changed its own', async () => {
    const w = await world();
    const agent = await w.agent();
    const session = rightOf(await w.app.auth.passwordGrant(agent.user.email, 'password-1'));
    const other = rightOf(await w.app.auth.passwordGrant(agent.user.email, 'password-1'));
    const made = rightOf(await w.app.tokens.create(agent, decoded({ name: 'Bot', scopes: ['users:write'] })));
    const kept = rightOf(await w.app.tokens.create(agent, decoded({ name: 'Kept', scopes: ['users:write'] })));
    const alive = async (token: string): Promise<boolean> => E.isRight(await w.app.auth.authenticate(token));
    // Own change in one login: that login (access and refresh) stays, the other and every personal token end.
    const inSession = rightOf(await w.app.auth.authenticate(session.accessToken));
    rightOf(
      await w.app.users.patch(inSession, 'me', decoded({ password: 'my own new one', currentPassword: 'password-1' })),
    );
    expect(await alive(session.accessToken), 'the session that changed it').to.equal(true);
    expect(E.isRight(await w.app.auth.refreshGrant(session.refreshToken)), 'its refresh token too').to.equal(true);
    expect(await alive(other.accessToken), 'another login').to.equal(false);
    expect(E.isLeft(await w.app.auth.refreshGrant(other.refreshToken)), 'its refresh token too').to.equal(true);
    expect(await alive(made.token), 'a personal token').to.equal(false);
    expect(await alive(kept.token)).to.equal(false);
    // Own change made with a personal token: that token stays, every login ends.
    const next = rightOf(await w.app.auth.passwordGrant(agent.user.email, 'my own new one'));
    const bot = rightOf(
      await w.app.tokens.create(
        rightOf(await w.app.auth.authenticate(next.accessToken)),
        decoded({ name: 'Bot 2', scopes: ['users:write'] }),
      ),
    );
    const asBot = rightOf(await w.app.auth.authenticate(bot.token));
    rightOf(
      await w.app.users.patch(asBot, 'me', decoded({ password: 'third one', currentPassword: 'my own new one' })),
    );
    expect(await alive(bot.token)).to.equal(true);
    expect(await alive(next.accessToken)).to.equal(false);
    // An admin's change ends everything.
    rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ password: 'set by the admin' })));
    expect(await alive(bot.token)).to.equal(false);
  });

  it("an e-mail change is refused when another user has it, and allowed to one's own or a free address", async () => {
    const w = await world();
    const [alice, bob] = [await w.customer(), await w.customer()];
    expect(
      codes(leftOf(await w.app.users.patch(w.admin, alice.user.id, decoded({ email: bob.user.email })))),
    ).to.deep.equal([['email', 'not_unique']]);
    const same = rightOf(await w.app.users.patch(w.admin, alice.user.id, decoded({ email: alice.user.email })));
    expect(same.version, 'the same address is no change').to.equal(alice.user.version);
    const moved = rightOf(
      await w.app.users.patch(w.admin, alice.user.id, decoded({ email: email('alice.new@example.com') })),
    );
    expect(moved.email).to.equal('alice.new@example.com');
    expect(moved.version).to.equal(alice.user.version + 1);
    const taken = leftOf(
      await w.app.users.create(w.admin, decoded({ name: 'Copy', email: bob.user.email, password: 'password!' })),
    );
    expect(codes(taken)).to.deep.equal([['email', 'not_unique']]);
  });

  it('groups: unknown ones refused with the rest, null empties, a PATCH without them keeps them', async () => {
    const w = await world();
    const group = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Tier 1' })));
    const agent = await w.agent();
    const unknown = leftOf(
      await w.app.users.patch(
        w.admin,
        agent.user.id,
        decoded({ groupIds: [group.id, 999 as GroupId], email: email('bad') }),
      ),
    );
    expect(codes(unknown)).to.deep.include(['groupIds', 'unknown_reference']);
    const joined = rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ groupIds: [group.id] })));
    expect(joined.groupIds).to.deep.equal([group.id]);
    expect(
      rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ name: 'Renamed' }))).groupIds,
    ).to.deep.equal([group.id]);
    expect(rightOf(await w.app.groups.members(w.admin, group.id, page())).total).to.equal(1);
    const fresh = await w.refreshed(agent);
    expect(
      rightOf(await w.app.users.patch(fresh, 'me', decoded({ groupIds: [group.id] }))).version,
      'their own groups, unchanged: allowed',
    ).to.equal(fresh.user.version);
    expect(leftOf(await w.app.users.patch(fresh, 'me', decoded({ groupIds: [] })))._tag).to.equal('Forbidden');
    expect(
      rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ groupIds: null }))).groupIds,
    ).to.deep.equal([]);
    const created = rightOf(
      await w.app.users.create(
        w.admin,
        decoded({ name: 'In a group', email: email('g@example.com'), password: 'password!', groupIds: [group.id] }),
      ),
    );
    expect(created.groupIds).to.deep.equal([group.id]);
    expect(
      codes(
        leftOf(
          await w.app.users.create(
            w.admin,
            decoded({ name: 'X', email: email('x@example.com'), password: 'password!', groupIds: [998 as GroupId] }),
          ),
        ),
      ),
    ).to.deep.equal([['groupIds', 'unknown_reference']]);
  });

  it('refuses a refused body and a refused page, whoever asks', async () => {
    const w = await world();
    const refused = E.left({
      errors: [{ field: 'name', code: 'required' as const, message: 'is required' }],
      given: [],
    });
    expect(leftOf(await w.app.users.create(w.admin, refused))._tag).to.equal('ValidationFailed');
    expect(leftOf(await w.app.users.patch(w.admin, 'me', refused))._tag).to.equal('ValidationFailed');
    expect(leftOf(await w.app.users.replace(w.admin, 'me', refused))._tag).to.equal('ValidationFailed');
    expect(
      leftOf(
        await w.app.users.list(w.admin, E.left([{ parameter: 'page', code: 'invalid_value', message: 'x' }] as never)),
      )._tag,
    ).to.equal('InvalidQuery');
  });
});
