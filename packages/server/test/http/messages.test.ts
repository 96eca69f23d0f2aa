import { expect } from 'chai';
import { suiteApi } from '../support/suite-api.js';
import {
  arr,
  createTicket,
  fieldErrors,
  isoMillis,
  linkRels,
  obj,
  patchJson,
  pathOf,
  type Json,
} from '../support/resources.js';

describe('HTTP: messages (numbering, internal notes, ticket updated_at, edits, 410)', () => {
  let admin: string;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };
  let other: { id: number; token: string };

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Agent Smith');
    customer = await api.userWithToken('customer', 'Carol Customer');
    other = await api.userWithToken('customer', 'Oscar Other');
  });

  const ticketFor = (owner: { id: number }, subject = 'Messages'): Promise<Json> =>
    createTicket(api, agent.token, { subject, customer_id: owner.id });

  const post = async (ticket: Json, token: string, body: Json): Promise<Json> => {
    const a = await api.post(pathOf(ticket.messages_url), body, { token });
    expect(a.status, a.text).to.equal(201);
    return obj(a);
  };

  it('creates a message: 201, Location, absolute url, author from the token, ticket link, internal false by default', async () => {
    const t = await ticketFor(customer);
    const now = api.clock.now();
    const a = await api.post(pathOf(t.messages_url), { body: 'Hello, it is broken' }, { token: customer.token });
    expect(a.status, a.text).to.equal(201);
    const m = obj(a);
    const url = `${t.url as string}/messages/1`;
    expect(m).to.deep.equal({
      id: 1,
      url,
      body: 'Hello, it is broken',
      author: { id: customer.id, url: `${api.origin}/v1/users/${customer.id}` },
      internal: false,
      attachments: [],
      ticket: { id: t.id, url: t.url },
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
    });
    expect(m.created_at).to.match(isoMillis);
    expect(a.header('location')).to.equal(url);
    const read = await api.get(pathOf(url), { token: customer.token });
    expect(read.status).to.equal(200);
    expect(read.json).to.deep.equal(m);
  });

  it('numbers messages 1, 2, 3... inside each ticket, independently of other tickets', async () => {
    const t1 = await ticketFor(customer, 'one');
    const t2 = await ticketFor(customer, 'two');
    const ids: [unknown, unknown][] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push([
        (await post(t1, agent.token, { body: `t1 #${i}` })).id,
        (await post(t2, customer.token, { body: `t2 #${i}` })).id,
      ]);
    }
    expect(ids).to.deep.equal([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it("lists the messages' data directly as a bare array, oldest first, paged with Link and X-Total-Count", async () => {
    const t = await ticketFor(customer, 'paged');
    for (let i = 1; i <= 5; i += 1) {
      api.clock.advance(10);
      await post(t, agent.token, { body: `message ${i}` });
    }
    const all = await api.get(pathOf(t.messages_url), { token: customer.token });
    expect(all.status).to.equal(200);
    expect(arr(all).map((m) => [m.id, m.body])).to.deep.equal([1, 2, 3, 4, 5].map((n) => [n, `message ${n}`]));
    expect(all.header('x-total-count')).to.equal('5');
    const page = await api.get(`${pathOf(t.messages_url)}?per_page=2&page=2`, { token: customer.token });
    expect(arr(page).map((m) => m.id)).to.deep.equal([3, 4]);
    expect(page.header('x-total-count')).to.equal('5');
    const rels = linkRels(page.header('link'));
    expect(rels).to.deep.equal({
      first: `${t.messages_url as string}?per_page=2&page=1`,
      prev: `${t.messages_url as string}?per_page=2&page=1`,
      next: `${t.messages_url as string}?per_page=2&page=3`,
      last: `${t.messages_url as string}?per_page=2&page=3`,
    });
    const bad = await api.get(`${pathOf(t.messages_url)}?per_page=101`, { token: customer.token });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.include('per_page');
  });

  it('hides internal notes from the customer (absent from the list, 404 by id) and shows them to staff', async () => {
    const t = await ticketFor(customer, 'notes');
    await post(t, customer.token, { body: 'public question' });
    const note = await post(t, agent.token, { body: 'customer seems confused', internal: true });
    expect(note).to.include({ id: 2, internal: true });
    await post(t, agent.token, { body: 'public answer' });

    const seen = arr(await api.get(pathOf(t.messages_url), { token: customer.token }));
    expect(seen.map((m) => m.id)).to.deep.equal([1, 3]);
    expect(JSON.stringify(seen)).not.to.include('confused');
    const asCustomer = await api.get(pathOf(note.url), { token: customer.token });
    expect(asCustomer.status).to.equal(404);
    expect(asCustomer.text).not.to.include('confused');
    expect((await patchJson(api, pathOf(note.url), { body: 'x' }, customer.token)).status).to.equal(404);

    const staffList = await api.get(pathOf(t.messages_url), { token: agent.token });
    expect(arr(staffList).map((m) => [m.id, m.internal])).to.deep.equal([
      [1, false],
      [2, true],
      [3, false],
    ]);
    expect((await api.get(pathOf(note.url), { token: admin })).status).to.equal(200);
  });

  it('refuses an internal note from a customer (403) and a customer making their message internal', async () => {
    const t = await ticketFor(customer, 'no notes for customers');
    const a = await api.post(pathOf(t.messages_url), { body: 'sneaky', internal: true }, { token: customer.token });
    expect(a.status).to.equal(403);
    const m = await post(t, customer.token, { body: 'plain' });
    expect((await patchJson(api, pathOf(m.url), { internal: true }, customer.token)).status).to.equal(403);
    expect(arr(await api.get(pathOf(t.messages_url), { token: agent.token })).map((x) => x.internal)).to.deep.equal([
      false,
    ]);
  });

  it("bumps the ticket's updated_at (and only that) when a message is added", async () => {
    const t = await ticketFor(customer, 'bump');
    api.clock.advance(60_000);
    const m = await post(t, customer.token, { body: 'ping' });
    const after = obj(await api.get(pathOf(t.url), { token: agent.token }));
    expect(after.updated_at).to.equal(m.created_at).and.not.equal(t.updated_at);
    expect(after).to.deep.include({ created_at: t.created_at, subject: t.subject, state: t.state });
  });

  it('edits with PUT and PATCH, refusing server-set fields and bad bodies with every error at once', async () => {
    const t = await ticketFor(customer, 'edits');
    const m = await post(t, customer.token, { body: 'first draft' });
    api.clock.advance(1000);
    const put = await api.request('PUT', pathOf(m.url), { token: customer.token, body: { body: 'second draft' } });
    expect(put.status, put.text).to.equal(200);
    expect(obj(put)).to.deep.include({ id: 1, body: 'second draft', internal: false, created_at: m.created_at });
    expect(obj(put).updated_at).to.equal(new Date(api.clock.now()).toISOString());
    const patched = await patchJson(api, pathOf(m.url), { body: 'third draft' }, customer.token);
    expect(obj(patched).body).to.equal('third draft');

    const bad = await patchJson(
      api,
      pathOf(m.url),
      { body: '', author: { id: 1 }, ticket: 5, id: 9, mood: 'x' },
      customer.token,
    );
    expect(fieldErrors(bad).map((e) => [e.field, e.code])).to.deep.equal([
      ['author', 42203],
      ['body', 42205],
      ['id', 42203],
      ['mood', 42202],
      ['ticket', 42203],
    ]);
    const missing = await api.post(pathOf(t.messages_url), { internal: false }, { token: agent.token });
    expect(fieldErrors(missing).map((e) => [e.field, e.code])).to.deep.equal([['body', 42201]]);
    const tooLong = await api.post(pathOf(t.messages_url), { body: 'x'.repeat(50001) }, { token: agent.token });
    expect(fieldErrors(tooLong).map((e) => [e.field, e.code])).to.deep.equal([['body', 42205]]);
  });

  it("lets a customer change only their own messages (403 on staff's), and hides other customers' tickets (404)", async () => {
    const t = await ticketFor(customer, 'ownership');
    const staffMessage = await post(t, agent.token, { body: 'from staff' });
    expect(
      (await patchJson(api, pathOf(staffMessage.url), { body: 'edited by customer' }, customer.token)).status,
    ).to.equal(403);
    expect((await api.request('DELETE', pathOf(staffMessage.url), { token: customer.token })).status).to.equal(403);
    expect((await api.get(pathOf(t.messages_url), { token: other.token })).status).to.equal(404);
    expect((await api.get(pathOf(staffMessage.url), { token: other.token })).status).to.equal(404);
    expect((await api.post(pathOf(t.messages_url), { body: 'intruder' }, { token: other.token })).status).to.equal(404);
  });

  it('answers 410 for a deleted message, drops it from the list and never reuses its number', async () => {
    const t = await ticketFor(customer, 'delete messages');
    await post(t, customer.token, { body: 'one' });
    const two = await post(t, customer.token, { body: 'two' });
    const del = await api.request('DELETE', pathOf(two.url), { token: customer.token });
    expect(del.status).to.equal(200);
    for (const a of [
      await api.get(pathOf(two.url), { token: customer.token }),
      await api.get(pathOf(two.url), { token: admin }),
      await patchJson(api, pathOf(two.url), { body: 'back' }, admin),
      await api.request('PUT', pathOf(two.url), { token: admin, body: { body: 'back' } }),
      await api.request('DELETE', pathOf(two.url), { token: admin }),
    ]) {
      expect(a.status, a.text).to.equal(410);
      expect(obj(a).code).to.equal(41001);
    }
    const three = await post(t, customer.token, { body: 'three' });
    expect(three.id).to.equal(3);
    const list = await api.get(pathOf(t.messages_url), { token: customer.token });
    expect(arr(list).map((m) => m.id)).to.deep.equal([1, 3]);
    expect(list.header('x-total-count')).to.equal('2');
    expect((await api.get(`${pathOf(t.messages_url)}/4`, { token: admin })).status).to.equal(404);
  });
});
