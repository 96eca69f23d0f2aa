import { expect } from 'chai';
import fc from 'fast-check';
import { afterStep } from './check.js';
import { messagePath, pick, ticketPath, touch } from './model.js';
import { command, expectStatus, phrase, send } from './command-kit.js';

// The steps on a ticket's messages: add, PATCH, DELETE and list (see commands.ts).

export const addMessage = fc
  .record({ which: fc.nat(), asCustomer: fc.boolean(), internal: fc.boolean(), body: phrase })
  .map((c) =>
    command(
      `addMessage(${JSON.stringify(c)})`,
      (m) => m.tickets.size > 0,
      async (m, r) => {
        const t = pick([...m.tickets.values()], c.which)!;
        const owner = m.users.get(t.customerId);
        const asCustomer = c.asCustomer && owner !== undefined && owner.role === 'customer' && owner.token !== null;
        const internal = c.internal && !asCustomer;
        const a = await send(r, 'POST', `${ticketPath(t.id)}/messages`, asCustomer ? owner.token! : r.admin, {
          body: c.body,
          internal,
        });
        if (t.deletedAt !== null) {
          expectStatus(a, 410, 'a message on a deleted ticket');
          return afterStep(m, r, []);
        }
        expectStatus(a, 201, 'POST messages');
        const number = m.messages.filter((x) => x.ticketId === t.id).length + 1;
        expect((a.json as { id: number }).id, 'messages are numbered 1, 2, 3 in their ticket').to.equal(number);
        m.messages.push({ ticketId: t.id, number, body: c.body, internal, deleted: false });
        touch(t, m.now);
        return afterStep(m, r, [
          { type: 'message.created', path: messagePath(t.id, number) },
          { type: 'ticket.updated', path: ticketPath(t.id) },
        ]);
      },
    ),
  );

export const patchMessage = fc.record({ which: fc.nat(), body: phrase }).map((c) =>
  command(
    `patchMessage(${JSON.stringify(c)})`,
    (m) => m.messages.length > 0,
    async (m, r) => {
      const msg = pick(m.messages, c.which)!;
      const a = await send(r, 'PATCH', messagePath(msg.ticketId, msg.number), r.admin, { body: c.body });
      if (msg.deleted || m.tickets.get(msg.ticketId)?.deletedAt !== null) {
        expectStatus(a, 410, 'PATCH of a deleted message');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, 'PATCH message');
      const same = msg.body === c.body;
      msg.body = c.body;
      return afterStep(m, r, same ? [] : [{ type: 'message.updated', path: messagePath(msg.ticketId, msg.number) }]);
    },
  ),
);

export const deleteMessage = fc.nat().map((n) =>
  command(
    `deleteMessage(${n})`,
    (m) => m.messages.length > 0,
    async (m, r) => {
      const msg = pick(m.messages, n)!;
      const a = await send(r, 'DELETE', messagePath(msg.ticketId, msg.number), r.admin);
      if (msg.deleted || m.tickets.get(msg.ticketId)?.deletedAt !== null) {
        expectStatus(a, 410, 'DELETE of a deleted message');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, 'DELETE message');
      msg.deleted = true;
      return afterStep(m, r, [{ type: 'message.deleted', path: messagePath(msg.ticketId, msg.number) }]);
    },
  ),
);

export const listMessages = fc.record({ which: fc.nat(), asCustomer: fc.boolean() }).map((c) =>
  command(
    `listMessages(${JSON.stringify(c)})`,
    (m) => m.tickets.size > 0,
    async (m, r) => {
      const t = pick([...m.tickets.values()], c.which)!;
      const owner = m.users.get(t.customerId);
      const asCustomer = c.asCustomer && owner !== undefined && owner.role === 'customer' && owner.token !== null;
      const a = await r.api.get(`${ticketPath(t.id)}/messages?per_page=100`, {
        token: asCustomer ? owner.token! : r.admin,
      });
      if (t.deletedAt !== null) {
        expectStatus(a, 410, 'the messages of a deleted ticket');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, 'GET messages');
      // Oldest first; a customer never sees an internal note.
      const want = m.messages
        .filter((x) => x.ticketId === t.id && !x.deleted && !(asCustomer && x.internal))
        .map((x) => x.number);
      expect(
        (a.json as { id: number }[]).map((x) => x.id),
        'the messages listed',
      ).to.deep.equal(want);
      expect(a.header('x-total-count')).to.equal(String(want.length));
      return afterStep(m, r, []);
    },
  ),
);
