import { expect } from 'chai';
import type { Answer, Api } from '../support/harness.js';
import { suiteCast } from '../support/suite-api.js';
import { obj, patchJson, pathOf, type Json } from '../support/resources.js';
import { eventsCast, type Person } from '../support/casts.js';
import { newestSeq, readAll, type Change } from '../support/feed.js';

// The change feed (contract §7.3) over HTTPS: what each write appends, reading by cursor,
// the long poll, roles, bad parameters and retention.

describe('HTTP: the change feed (GET /v1/events)', () => {
  let api: Api, admin: string, agent: Person;
  suiteCast(async () => ({ api, admin, agent } = await eventsCast()));

  describe('every change appends its events, once, in commit order', () => {
    let cursor = 0;
    before(async () => {
      cursor = await newestSeq(api, admin);
    });

    /**
     * Runs one write and checks the events it appended: exactly those `expected` names (in any
     * order within the write), numbered on from the cursor without a gap, stamped with the clock,
     * each carrying the resource as an admin reads it now (null once deleted).
     */
    const step = async <T>(write: () => Promise<T>, expected: (result: T) => readonly Change[]): Promise<T> => {
      api.clock.advance(1000);
      const result = await write();
      const want = expected(result);
      const appended = await readAll(api, admin, cursor);
      expect(appended.map((e) => [e.type, e.resource.type, e.resource.id])).to.have.deep.members(
        want.map((c) => [...c]),
      );
      expect(appended.map((e) => e.seq)).to.deep.equal(want.map((_, i) => cursor + 1 + i));
      for (const e of appended) {
        expect(e.occurred_at).to.equal(new Date(api.clock.now()).toISOString());
        const now = await api.get(pathOf(e.resource.url), { token: admin });
        if (e.type.endsWith('.deleted')) {
          expect(e.data).to.equal(null);
          expect(now.status).to.be.oneOf([404, 410]);
        } else {
          expect(now.status, now.text).to.equal(200);
          expect(e.data, e.type).to.deep.equal(now.json);
        }
      }
      cursor += appended.length;
      return result;
    };

    const created = async (path: string, body: Json): Promise<Json> => {
      const a = await api.post(path, body, { token: admin });
      expect(a.status, a.text).to.equal(201);
      return obj(a);
    };
    const done = async (a: Promise<Answer>): Promise<void> => {
      const answer = await a;
      expect(answer.status, answer.text).to.equal(200);
    };
    const id = (r: Json): number => r.id as number;

    it('tickets, messages, users and groups: created, updated, deleted; a renamed customer and a deleted group reach their tickets and users', async () => {
      const group = await step(
        () => created('/v1/groups', { name: 'Feed watchers' }),
        (g) => [['group.created', 'group', id(g)]],
      );
      const fay = await step(
        () =>
          created('/v1/users', {
            name: 'Fay Feed',
            email: 'fay.feed@example.com',
            password: 'fay-password',
            role: 'customer',
          }),
        (u) => [['user.created', 'user', id(u)]],
      );
      const ann = await step(
        () =>
          created('/v1/users', {
            name: 'Ann Agent',
            email: 'ann.feed@example.com',
            password: 'ann-password',
            role: 'agent',
            group_ids: [id(group)],
          }),
        (u) => [['user.created', 'user', id(u)]],
      );
      const t1 = await step(
        () =>
          created('/v1/tickets', {
            subject: 'Feed me',
            customer_id: id(fay),
            assigned_user_id: id(ann),
            group_id: id(group),
          }),
        (t) => [['ticket.created', 'ticket', id(t)]],
      );
      const t2 = await step(
        () => created('/v1/tickets', { subject: 'Feed me too', customer_id: id(fay) }),
        (t) => [['ticket.created', 'ticket', id(t)]],
      );
      const ticketPath = `/v1/tickets/${id(t1)}`;
      await step(
        () => done(patchJson(api, ticketPath, { priority: 'high', tags: ['feed'] }, admin)),
        () => [['ticket.updated', 'ticket', id(t1)]],
      );

      // A message moves its ticket's updated_at, so the ticket's representation changes too.
      const message = await step(
        () => created(`${ticketPath}/messages`, { body: 'First words' }),
        (m) => [
          ['message.created', 'message', id(m)],
          ['ticket.updated', 'ticket', id(t1)],
        ],
      );
      const messagePath = `${ticketPath}/messages/${id(message)}`;
      // Editing or deleting a message leaves its ticket's representation as it was.
      await step(
        () => done(patchJson(api, messagePath, { body: 'Second thoughts' }, admin)),
        () => [['message.updated', 'message', id(message)]],
      );
      await step(
        () => done(api.request('DELETE', messagePath, { token: admin })),
        () => [['message.deleted', 'message', id(message)]],
      );

      // Renaming a customer changes customer_name on each of their tickets.
      await step(
        () => done(patchJson(api, `/v1/users/${id(fay)}`, { name: 'Fay Renamed' }, admin)),
        () => [
          ['user.updated', 'user', id(fay)],
          ['ticket.updated', 'ticket', id(t1)],
          ['ticket.updated', 'ticket', id(t2)],
        ],
      );
      // Tickets and users show a group as a link: its description is not part of them.
      await step(
        () => done(patchJson(api, `/v1/groups/${id(group)}`, { description: 'They read everything' }, admin)),
        () => [['group.updated', 'group', id(group)]],
      );
      await step(
        () => done(api.request('DELETE', `/v1/tickets/${id(t2)}`, { token: admin })),
        () => [['ticket.deleted', 'ticket', id(t2)]],
      );
      // A deleted group leaves its members and its tickets.
      await step(
        () => done(api.request('DELETE', `/v1/groups/${id(group)}`, { token: admin })),
        () => [
          ['group.deleted', 'group', id(group)],
          ['user.updated', 'user', id(ann)],
          ['ticket.updated', 'ticket', id(t1)],
        ],
      );
      // A deleted agent is unassigned from their tickets.
      await step(
        () => done(api.request('DELETE', `/v1/users/${id(ann)}`, { token: admin })),
        () => [
          ['user.deleted', 'user', id(ann)],
          ['ticket.updated', 'ticket', id(t1)],
        ],
      );
      const final = obj(await api.get(ticketPath, { token: admin }));
      expect(final).to.include({ customer_name: 'Fay Renamed', assigned_user: null, group: null });
    });

    it('a refused write appends nothing', async () => {
      cursor = await newestSeq(api, admin);
      await step(
        async () => {
          expect((await api.post('/v1/tickets', { subject: '' }, { token: admin })).status).to.equal(422);
          expect((await patchJson(api, '/v1/users/999999', { name: 'Nobody' }, admin)).status).to.equal(404);
          expect((await api.post('/v1/groups', { name: 'x' }, { token: agent.token })).status).to.equal(403);
        },
        () => [],
      );
    });
  });
});
