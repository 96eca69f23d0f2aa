import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { arr, createTicket, fieldErrors, obj, patchJson, pathOf, type Json } from '../support/resources.js';
import { ticketsCast, type Person } from '../support/casts.js';

const day = 24 * 3600 * 1000;

describe('HTTP: tickets (representation, create, read, PUT, PATCH, DELETE, states, embed, fields)', () => {
  let api: Api, admin: string, agent: Person, customer: Person;
  suiteCast(async () => ({ api, admin, agent, customer } = await ticketsCast()));

  describe('states and closed_at', () => {
    it('walks open → pending → open → closed → open, setting closed_at on close and clearing it on reopen', async () => {
      const t = await createTicket(api, agent.token, { subject: 'States', customer_id: customer.id });
      const path = pathOf(t.url);
      const to = async (state: string): Promise<Json> => {
        api.clock.advance(1000);
        const a = await patchJson(api, path, { state }, agent.token);
        expect(a.status, a.text).to.equal(200);
        return obj(a);
      };
      expect(await to('pending')).to.include({ state: 'pending', closed_at: null });
      expect(await to('open')).to.include({ state: 'open', closed_at: null });
      const closed = await to('closed');
      expect(closed.state).to.equal('closed');
      expect(closed.closed_at).to.equal(new Date(api.clock.now()).toISOString()).and.equal(closed.updated_at);
      // A write that keeps it closed keeps the original closed_at.
      api.clock.advance(1000);
      const edited = obj(await patchJson(api, path, { summary: 'still closed' }, agent.token));
      expect(edited.closed_at).to.equal(closed.closed_at);
      expect(await to('open')).to.include({ state: 'open', closed_at: null });
    });

    it('refuses closed → pending with 422 invalid_transition on state and leaves the ticket unchanged', async () => {
      const t = await createTicket(api, agent.token, { subject: 'No pending', customer_id: customer.id });
      const closed = obj(await patchJson(api, pathOf(t.url), { state: 'closed' }, agent.token));
      const a = await patchJson(api, pathOf(t.url), { state: 'pending' }, agent.token);
      const errors = fieldErrors(a);
      expect(errors.map((e) => [e.field, e.code])).to.deep.equal([['state', 42208]]);
      // The refusal says where the ticket may go instead (contract §7.2).
      expect(errors[0]).to.deep.include({ allowed: ['open'] });
      expect(closed.allowed_transitions).to.deep.equal(['open']);
      const put = await api.request('PUT', pathOf(t.url), {
        token: agent.token,
        body: { subject: 'No pending', state: 'pending' },
      });
      expect(fieldErrors(put).map((e) => [e.field, e.code])).to.deep.equal([['state', 42208]]);
      expect((await api.get(pathOf(t.url), { token: agent.token })).json).to.deep.equal(closed);
    });

    it('lets a customer close and reopen but not set pending (403)', async () => {
      const t = await createTicket(api, customer.token, { subject: 'Customer states' });
      expect(obj(await patchJson(api, pathOf(t.url), { state: 'closed' }, customer.token)).state).to.equal('closed');
      expect(obj(await patchJson(api, pathOf(t.url), { state: 'open' }, customer.token)).state).to.equal('open');
      expect((await patchJson(api, pathOf(t.url), { state: 'pending' }, customer.token)).status).to.equal(403);
    });

    it('says in allowed_transitions where the caller may move the ticket now: by state and role, none once deleted', async () => {
      const t = await createTicket(api, agent.token, { subject: 'Where to', customer_id: customer.id });
      const path = pathOf(t.url);
      const seen = async (token: string): Promise<unknown> => obj(await api.get(path, { token })).allowed_transitions;
      expect(await seen(agent.token)).to.deep.equal(['pending', 'closed']);
      expect(await seen(customer.token)).to.deep.equal(['closed']);
      // Part of the representation, so of the ETag: an open ticket differs by role.
      expect((await api.get(path, { token: agent.token })).header('etag')).to.not.equal(
        (await api.get(path, { token: customer.token })).header('etag'),
      );
      await patchJson(api, path, { state: 'pending' }, agent.token);
      expect(await seen(agent.token)).to.deep.equal(['open', 'closed']);
      expect(await seen(customer.token)).to.deep.equal(['open', 'closed']);
      await patchJson(api, path, { state: 'closed' }, agent.token);
      expect(await seen(admin)).to.deep.equal(['open']);
      expect(await seen(customer.token)).to.deep.equal(['open']);
      // A field like any other: selectable, not writable.
      const only = await api.get(`${path}?fields=id,allowed_transitions`, { token: customer.token });
      expect(only.json).to.deep.equal({ id: t.id, allowed_transitions: ['open'] });
      const written = await patchJson(api, path, { allowed_transitions: ['pending'] }, agent.token);
      expect(fieldErrors(written).map((e) => [e.field, e.code])).to.deep.equal([['allowed_transitions', 42203]]);
      const deleted = await api.request('DELETE', path, { token: admin });
      expect(obj(deleted).allowed_transitions).to.deep.equal([]);
    });
  });

  describe('recently_closed', () => {
    it('lists closed tickets of the last 7 days, newest closed first, the same by path and by q', async () => {
      const scoped = await api.userWithToken('customer', 'Recent Closer');
      const make = async (subject: string): Promise<Json> =>
        createTicket(api, agent.token, { subject, customer_id: scoped.id });
      const old = await make('old');
      const a = await make('a');
      const b = await make('b');
      await make('still open');
      await patchJson(api, pathOf(old.url), { state: 'closed' }, agent.token);
      api.clock.advance(8 * day);
      await patchJson(api, pathOf(b.url), { state: 'closed' }, agent.token);
      api.clock.advance(1000);
      await patchJson(api, pathOf(a.url), { state: 'closed' }, agent.token);
      const byPath = await api.get('/v1/tickets/recently_closed', { token: scoped.token });
      expect(byPath.status).to.equal(200);
      expect(arr(byPath).map((t) => t.id)).to.deep.equal([a.id, b.id]);
      const byQ = await api.get('/v1/tickets?q=recently_closed', { token: scoped.token });
      expect(byQ.json).to.deep.equal(byPath.json);
      expect(arr(await api.get('/v1/tickets/recently_closed?state=open', { token: scoped.token }))).to.deep.equal([]);
      expect(
        arr(await api.get('/v1/tickets/recently_closed?state=open,closed', { token: scoped.token })).map((t) => t.id),
      ).to.deep.equal([a.id, b.id]);
      const sorted = await api.get('/v1/tickets/recently_closed?sort=closed_at', { token: scoped.token });
      expect(arr(sorted).map((t) => t.id)).to.deep.equal([b.id, a.id]);
      api.clock.advance(7 * day - 500);
      expect(arr(await api.get('/v1/tickets/recently_closed', { token: scoped.token })).map((t) => t.id)).to.deep.equal(
        [a.id],
      );
    });
  });
});
