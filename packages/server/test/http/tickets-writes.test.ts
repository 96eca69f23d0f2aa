import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { arr, createTicket, fieldErrors, obj, patchJson, pathOf } from '../support/resources.js';
import { ticketsCast, type Person } from '../support/casts.js';

describe('HTTP: tickets (representation, create, read, PUT, PATCH, DELETE, states, embed, fields)', () => {
  let api: Api, admin: string, agent: Person, customer: Person;
  suiteCast(async () => ({ api, admin, agent, customer } = await ticketsCast()));

  describe('PUT and PATCH', () => {
    it('PUT replaces every writable field: omitted optional ones return to their defaults, the customer stays', async () => {
      const t = await createTicket(api, agent.token, {
        subject: 'Full',
        summary: 'long text',
        priority: 'urgent',
        tags: ['x'],
        customer_id: customer.id,
        assigned_user_id: agent.id,
      });
      api.clock.advance(1000);
      const a = await api.request('PUT', pathOf(t.url), { token: agent.token, body: { subject: 'Replaced' } });
      expect(a.status, a.text).to.equal(200);
      const r = obj(a);
      expect(r).to.deep.include({
        id: t.id,
        subject: 'Replaced',
        summary: '',
        priority: 'normal',
        tags: [],
        assigned_user: null,
        state: 'open',
        customer: t.customer,
        customer_name: 'Ada Lovelace',
        created_at: t.created_at,
      });
      expect(Date.parse(r.updated_at as string) - Date.parse(t.updated_at as string)).to.equal(1000);
      expect((await api.get(pathOf(t.url), { token: agent.token })).json).to.deep.equal(r);
    });

    it('PUT without the required subject is 422 naming it', async () => {
      const t = await createTicket(api, agent.token, { subject: 'Keep', customer_id: customer.id });
      const a = await api.request('PUT', pathOf(t.url), { token: agent.token, body: { summary: 'no subject' } });
      expect(fieldErrors(a)).to.deep.equal([{ code: 42201, field: 'subject', message: fieldErrors(a)[0]!.message }]);
    });

    it('PATCH with application/merge-patch+json changes only the given fields; null resets to the default', async () => {
      const t = await createTicket(api, agent.token, {
        subject: 'Patch me',
        summary: 'keep',
        priority: 'low',
        tags: ['t'],
        customer_id: customer.id,
      });
      api.clock.advance(500);
      const a = await patchJson(api, pathOf(t.url), { priority: 'high', tags: null }, agent.token);
      expect(a.status, a.text).to.equal(200);
      const r = obj(a);
      expect(r).to.deep.include({
        subject: 'Patch me',
        summary: 'keep',
        priority: 'high',
        tags: [],
        created_at: t.created_at,
      });
      expect(r.updated_at).to.equal(new Date(api.clock.now()).toISOString());
      const plainJson = await api.request('PATCH', pathOf(t.url), {
        token: agent.token,
        body: { summary: 'via json' },
      });
      expect(plainJson.status).to.equal(200);
      expect(obj(plainJson).summary).to.equal('via json');
    });

    it('PATCH refuses server-set fields and bad values in one 422; PUT does not take merge-patch', async () => {
      const t = await createTicket(api, agent.token, { subject: 'Strict', customer_id: customer.id });
      const a = await patchJson(
        api,
        pathOf(t.url),
        { closed_at: '2026-01-01T00:00:00.000Z', customer_name: 'x', priority: 'meh' },
        agent.token,
      );
      expect(fieldErrors(a).map((e) => [e.field, e.code])).to.deep.equal([
        ['closed_at', 42203],
        ['customer_name', 42203],
        ['priority', 42206],
      ]);
      const put = await api.request('PUT', pathOf(t.url), {
        token: agent.token,
        body: JSON.stringify({ subject: 'x' }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(put.status).to.equal(415);
      expect(obj(await api.get(pathOf(t.url), { token: agent.token })).subject).to.equal('Strict');
    });

    it('lets a customer change subject and summary but not priority (403)', async () => {
      const t = await createTicket(api, customer.token, { subject: 'Customer' });
      expect((await patchJson(api, pathOf(t.url), { summary: 'more' }, customer.token)).status).to.equal(200);
      const a = await patchJson(api, pathOf(t.url), { priority: 'urgent' }, customer.token);
      expect(a.status).to.equal(403);
    });

    it("names the fields a customer may not write by the API's names (403)", async () => {
      const t = await createTicket(api, customer.token, { subject: 'Mine' });
      const one = await patchJson(api, pathOf(t.url), { customer_id: agent.id }, customer.token);
      expect([one.status, obj(one).description]).to.deep.equal([403, 'customers may not write the field customer_id']);
      const two = await patchJson(
        api,
        pathOf(t.url),
        { assigned_user_id: agent.id, group_id: null, priority: 'low' },
        customer.token,
      );
      expect([two.status, obj(two).description]).to.deep.equal([
        403,
        'customers may not write the fields priority, assigned_user_id, group_id',
      ]);
    });
  });

  describe('DELETE', () => {
    it('soft-deletes: 200, then the ticket and its messages answer 410 and it leaves the list', async () => {
      const t = await createTicket(api, agent.token, { subject: 'Doomed ticket zyxwv', customer_id: customer.id });
      const path = pathOf(t.url);
      const msg = await api.post(`${path}/messages`, { body: 'hello' }, { token: agent.token });
      expect(msg.status).to.equal(201);
      const del = await api.request('DELETE', path, { token: admin });
      expect(del.status).to.equal(200);
      for (const a of [
        await api.get(path, { token: admin }),
        await api.get(`/v1/ticket/${t.id as number}`, { token: admin }),
        await api.request('PUT', path, { token: admin, body: { subject: 'back' } }),
        await patchJson(api, path, { subject: 'back' }, admin),
        await api.request('DELETE', path, { token: admin }),
        await api.get(`${path}/messages`, { token: admin }),
        await api.get(`${path}/messages/1`, { token: admin }),
        await api.post(`${path}/messages`, { body: 'more' }, { token: admin }),
      ]) {
        expect(a.status, a.text).to.equal(410);
        expect(obj(a).code).to.equal(41001);
      }
      const list = arr(await api.get('/v1/tickets?q=zyxwv&per_page=100', { token: admin }));
      expect(list).to.have.length(0);
      const all = arr(await api.get('/v1/tickets?per_page=100', { token: admin }));
      expect(all.map((x) => x.id)).not.to.include(t.id);
    });

    it('is forbidden to agents and customers (403) on a ticket they can see', async () => {
      const t = await createTicket(api, customer.token, { subject: 'Keep me' });
      expect((await api.request('DELETE', pathOf(t.url), { token: customer.token })).status).to.equal(403);
      expect((await api.request('DELETE', pathOf(t.url), { token: agent.token })).status).to.equal(403);
      expect((await api.get(pathOf(t.url), { token: customer.token })).status).to.equal(200);
    });
  });
});
