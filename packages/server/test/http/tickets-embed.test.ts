import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { createTicket, obj, pathOf, type Json } from '../support/resources.js';
import { ticketsCast, type Person } from '../support/casts.js';

describe('HTTP: tickets (representation, create, read, PUT, PATCH, DELETE, states, embed, fields)', () => {
  let api: Api, admin: string, agent: Person, customer: Person;
  suiteCast(async () => ({ api, admin, agent, customer } = await ticketsCast()));

  describe('embed and fields', () => {
    let ticket: Json;
    let group: Json;
    before(async () => {
      const g = await api.post('/v1/groups', { name: 'Embed group', description: 'for embed' }, { token: admin });
      expect(g.status, g.text).to.equal(201);
      group = obj(g);
      ticket = await createTicket(api, agent.token, {
        subject: 'Embedded',
        customer_id: customer.id,
        assigned_user_id: agent.id,
        group_id: group.id as number,
      });
    });

    it('shows related resources as link objects without embed', () => {
      expect(ticket.assigned_user).to.deep.equal({ id: agent.id, url: `${api.origin}/v1/users/${agent.id}` });
      expect(ticket.group).to.deep.equal({ id: group.id, url: group.url });
    });

    it('expands embed=customer,group into the full representations', async () => {
      const t = obj(await api.get(`${pathOf(ticket.url)}?embed=customer,group`, { token: agent.token }));
      const c = t.customer as Json;
      expect(c).to.include({
        id: customer.id,
        url: `${api.origin}/v1/users/${customer.id}`,
        name: 'Ada Lovelace',
        role: 'customer',
      });
      expect(c).to.have.property('email');
      expect(c).not.to.have.property('password');
      expect(t.group).to.deep.equal(group);
      expect(t.assigned_user).to.deep.equal({ id: agent.id, url: `${api.origin}/v1/users/${agent.id}` });
    });

    it('embed=customer.name,assigned_user gives the link plus name, and the whole assignee', async () => {
      const t = obj(
        await api.get(`/v1/ticket/${ticket.id as number}?embed=customer.name,assigned_user`, { token: agent.token }),
      );
      expect(t.customer).to.deep.equal({
        id: customer.id,
        url: `${api.origin}/v1/users/${customer.id}`,
        name: 'Ada Lovelace',
      });
      expect(t.assigned_user).to.include({ id: agent.id, name: 'Grace Hopper', role: 'agent' });
    });

    it('shows a customer other users only by id, url and name, whatever embed asks for', async () => {
      const t = obj(
        await api.get(`${pathOf(ticket.url)}?embed=customer,assigned_user,group`, { token: customer.token }),
      );
      expect(t.assigned_user).to.deep.equal({
        id: agent.id,
        url: `${api.origin}/v1/users/${agent.id}`,
        name: 'Grace Hopper',
      });
      expect((t.customer as Json).email).to.be.a('string');
      expect(t.group).to.deep.equal({ id: group.id, url: group.url, name: 'Embed group' });
    });

    it('fields keeps only the named top-level fields (customer_name included), also with embed', async () => {
      const a = await api.get(`${pathOf(ticket.url)}?fields=id,customer_name,customer&embed=customer.name`, {
        token: agent.token,
      });
      expect(a.json).to.deep.equal({
        id: ticket.id,
        customer: { id: customer.id, url: `${api.origin}/v1/users/${customer.id}`, name: 'Ada Lovelace' },
        customer_name: 'Ada Lovelace',
      });
    });

    it('answers 400 naming an unknown field or embed', async () => {
      const f = await api.get(`${pathOf(ticket.url)}?fields=id,password`, { token: agent.token });
      expect(f.status).to.equal(400);
      expect(obj(f).code).to.equal(40001);
      expect(f.text).to.include('password');
      const e = await api.get(`${pathOf(ticket.url)}?embed=messages`, { token: agent.token });
      expect(e.status).to.equal(400);
      expect(e.text).to.include('messages');
      const sub = await api.get(`${pathOf(ticket.url)}?embed=customer.secret`, { token: agent.token });
      expect(sub.status).to.equal(400);
      expect(sub.text).to.include('secret');
    });
  });
});
