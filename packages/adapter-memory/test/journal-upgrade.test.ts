import {
  groupUpgrades,
  messageUpgrades,
  ticketUpgrades,
  upgrading,
  userUpgrades,
  type GroupId,
  type MessageNumber,
  type TicketId,
  type UserId,
} from '@support/domain';
import { aGroup, aMessage, aTicket, aUser } from '@support/domain/testing';
import { expect } from 'chai';
import { journalTables, Journal, storedAsIs } from '../src/journal.js';
import { createMemoryEngine } from '../src/store.js';

// What the embedded store relies on: every record a port keeps comes back from disk through
// its table's restorer, read through the table's upgrade step. A field added to a record type
// gets a default in the domain's `<type>Upgrades` (the build asks for it); the tests below
// then restore, for each such field, a record written without it.

const ticket = aTicket({ id: 7, tags: ['printer'], assignedUserId: 1, groupId: 2 });
const message = aMessage({ ticketId: 7, number: 1, internal: true });
const user = aUser({ id: 1, groupIds: [2] });
const group = aGroup({ id: 2, description: 'Second line' });

const restored = (records: readonly { table: string; key: unknown; value: unknown }[]) => {
  const engine = createMemoryEngine();
  engine.restore(records as never);
  return engine.store;
};
const all = (overrides: { ticket?: object; message?: object; user?: object; group?: object } = {}) =>
  restored([
    { table: 'users', key: 1, value: overrides.user ?? user },
    { table: 'groups', key: 2, value: overrides.group ?? group },
    { table: 'tickets', key: 7, value: overrides.ticket ?? ticket },
    { table: 'messages', key: [7, 1], value: overrides.message ?? message },
  ]);

const without = (record: object, field: string): object =>
  Object.fromEntries(Object.entries(record).filter(([k]) => k !== field));

describe('stored records come back through their upgrade step', () => {
  it('a ticket, a message, a user and a group of the current format come back as they were written', async () => {
    const s = all();
    expect(await s.tickets.findById(7 as TicketId)).to.deep.equal(ticket);
    expect(await s.messages.find(7 as TicketId, 1 as MessageNumber)).to.deep.equal(message);
    expect(await s.users.findById(1 as UserId)).to.deep.equal(user);
    expect(await s.groups.findById(2 as GroupId)).to.deep.equal(group);
  });

  // One test per field added since the first format (so far: the tickets' customFields, the messages' attachments).
  for (const [field, value] of Object.entries(ticketUpgrades))
    it(`a ticket written before ${field} existed comes back with ${JSON.stringify(value)}`, async () => {
      const t = await all({ ticket: without(ticket, field) }).tickets.findById(7 as TicketId);
      expect(t).to.deep.equal({ ...ticket, [field]: value });
    });
  for (const [field, value] of Object.entries(messageUpgrades))
    it(`a message written before ${field} existed comes back with ${JSON.stringify(value)}`, async () => {
      const m = await all({ message: without(message, field) }).messages.find(7 as TicketId, 1 as MessageNumber);
      expect(m).to.deep.equal({ ...message, [field]: value });
    });
  for (const [field, value] of Object.entries(userUpgrades))
    it(`a user written before ${field} existed comes back with ${JSON.stringify(value)}`, async () => {
      const u = await all({ user: without(user, field) }).users.findById(1 as UserId);
      expect(u).to.deep.equal({ ...user, [field]: value });
    });
  for (const [field, value] of Object.entries(groupUpgrades))
    it(`a group written before ${field} existed comes back with ${JSON.stringify(value)}`, async () => {
      const g = await all({ group: without(group, field) }).groups.findById(2 as GroupId);
      expect(g).to.deep.equal({ ...group, [field]: value });
    });

  it('an upgrade step fills in only what a record lacks, keeping null, false and 0 as stored', () => {
    interface Later {
      readonly id: number;
      readonly dueAt: number | null;
      readonly urgent: boolean;
      readonly count: number;
    }
    const upgrade = upgrading<Later, 'id'>({ dueAt: null, urgent: false, count: 1 });
    expect(upgrade({ id: 1 })).to.deep.equal({ id: 1, dueAt: null, urgent: false, count: 1 });
    expect(upgrade({ id: 1, dueAt: 5, urgent: true, count: 0 })).to.deep.equal({
      id: 1,
      dueAt: 5,
      urgent: true,
      count: 0,
    });
  });
});

describe('the sealed journal', () => {
  it('every journalled table of the memory engine has its restorer (the engine is built, so it was sealed)', () => {
    expect(() => createMemoryEngine()).not.to.throw();
  });

  it('refuses to seal while a table has no restorer, naming it', () => {
    const journal = new Journal(null);
    for (const table of journalTables.filter((t) => t !== 'groups'))
      journal.restorer(table, { upgrade: storedAsIs, restore: () => undefined });
    expect(() => {
      journal.seal();
    }).to.throw(/keeps groups without a restorer/);
  });

  it('refuses a second restorer for a table, and any restorer or new table after the seal', () => {
    const journal = new Journal(null);
    for (const table of journalTables) journal.restorer(table, { upgrade: storedAsIs, restore: () => undefined });
    expect(() => {
      journal.restorer('tickets', { upgrade: storedAsIs, restore: () => undefined });
    }).to.throw(/two restorers/);
    journal.seal();
    expect(() => {
      journal.restorer('tickets', { upgrade: storedAsIs, restore: () => undefined });
    }).to.throw(/after the engine was sealed/);
    expect(() => journal.map('messages')).not.to.throw();
  });
});
