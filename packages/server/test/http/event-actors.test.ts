import { expect } from 'chai';
import type { Answer } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { expectError } from '../support/oauth.js';
import { arr, createTicket, idOf, linkRels, patchJson, pathOf } from '../support/resources.js';

// Who did it (contract §8.3): every event names its actor, a change through a reference the
// actor of the request that caused it, and GET /v1/events?actor_id= lists one user's changes.

interface Actor {
  readonly type: string;
  readonly id?: number;
  readonly url?: string;
  readonly token?: { readonly id: number; readonly name: string };
}
interface FeedEvent {
  readonly seq: number;
  readonly type: string;
  readonly resource: { readonly type: string; readonly id: number };
  readonly actor: Actor;
}

const events = (a: Answer): FeedEvent[] => {
  expect(a.status, a.text).to.equal(200);
  return arr(a) as unknown as FeedEvent[];
};

describe('HTTP: the actor of every event (contract §8.3)', () => {
  let admin: string;
  let adminId: number;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    adminId = idOf(await api.get('/v1/users/me', { token: admin }));
    agent = await api.userWithToken('agent', 'Ansel Agent');
    customer = await api.userWithToken('customer', 'Cleo Customer');
  });

  const userActor = (id: number): Actor => ({ type: 'user', id, url: `${api.origin}/v1/users/${id}` });

  it("the first admin, made at start, is the system's change; a request's changes are its user's", async () => {
    const all = events(await api.get('/v1/events?per_page=100', { token: admin }));
    expect(all[0]?.type).to.equal('user.created');
    expect(all[0]?.actor).to.deep.equal({ type: 'system' });
    const created = all.filter(
      (e) => e.type === 'user.created' && (e.resource.id === agent.id || e.resource.id === customer.id),
    );
    expect(created.map((e) => e.actor)).to.deep.equal([userActor(adminId), userActor(adminId)]);
  });

  it('a change through a reference carries the actor of the request that caused it', async () => {
    const t = await createTicket(api, agent.token, { subject: 'Renamed later', customer_id: customer.id });
    const before = Math.max(...events(await api.get('/v1/events?per_page=100', { token: admin })).map((e) => e.seq));
    const renamed = await patchJson(api, '/v1/users/me', { name: 'Cleo King' }, customer.token);
    expect(renamed.status, renamed.text).to.equal(200);
    const after = events(await api.get(`/v1/events?after=${before}`, { token: admin }));
    expect(after.map((e) => [e.type, e.resource.id, e.actor])).to.deep.include.members([
      ['user.updated', customer.id, userActor(customer.id)],
      ['ticket.updated', t.id as number, userActor(customer.id)],
    ]);
  });

  it("actor_id lists one user's changes, under the global cursor; Link keeps actor_id", async () => {
    await createTicket(api, agent.token, { subject: 'By the agent 1', customer_id: customer.id });
    await createTicket(api, admin, { subject: 'By the admin', customer_id: customer.id });
    await createTicket(api, agent.token, { subject: 'By the agent 2', customer_id: customer.id });
    const mine = events(await api.get(`/v1/events?actor_id=${agent.id}&per_page=100`, { token: admin }));
    const everyone = events(await api.get('/v1/events?per_page=100', { token: admin }));
    expect(mine.map((e) => e.seq)).to.deep.equal(everyone.filter((e) => e.actor.id === agent.id).map((e) => e.seq));
    expect(mine.length).to.be.at.least(3);
    const first = await api.get(`/v1/events?actor_id=${agent.id}&per_page=1`, { token: admin });
    const next = linkRels(first.header('link')).next;
    expect(next)
      .to.include(`actor_id=${agent.id}`)
      .and.include(`after=${String(events(first)[0]?.seq)}`);
    expect(events(await api.get(pathOf(next), { token: admin }))[0]?.seq).to.equal(mine[1]?.seq);
    expect(events(await api.get('/v1/events?actor_id=999999', { token: admin }))).to.deep.equal([]);
  });

  it("a wait with actor_id is not ended by another user's change", async () => {
    const newest = Math.max(...events(await api.get('/v1/events?per_page=100', { token: admin })).map((e) => e.seq));
    const started = Date.now();
    const held = api.get(`/v1/events?after=${newest}&actor_id=${agent.id}&wait=10`, { token: admin });
    await new Promise((r) => setTimeout(r, 300));
    await createTicket(api, admin, { subject: 'Not the agent', customer_id: customer.id });
    await new Promise((r) => setTimeout(r, 300));
    const t = await createTicket(api, agent.token, { subject: 'The agent', customer_id: customer.id });
    const got = events(await held);
    expect(got.map((e) => [e.type, e.resource.id])).to.deep.equal([['ticket.created', t.id]]);
    expect(Date.now() - started).to.be.below(9000);
  });

  it('refuses a bad actor_id: 400 naming it', async () => {
    for (const bad of ['0', 'me', '-1', '1.5'])
      expectError(await api.get(`/v1/events?actor_id=${bad}`, { token: admin }), 400, 40001);
    const a = await api.get('/v1/events?actor_id=x', { token: admin });
    expect(JSON.stringify(a.json)).to.include('actor_id');
  });
});
