import { expect } from 'chai';
import { upgradeGroup, upgradeMessage, upgradeTicket, upgrading, type Message, type Ticket } from '../src/index.js';
import { aGroup, aMessage, aTicket } from '../test-support/mothers.js';

// A record stored before a field existed is read back with that field's upgrade value; a
// record that has every field is read back as it is (the same object, nothing copied).

interface Note {
  readonly id: number;
  readonly text: string;
  readonly pinned: boolean;
  readonly labels: readonly string[];
}
const upgradeNote = upgrading<Note, 'id' | 'text'>({ pinned: false, labels: [] });

describe('domain: reading back records of an older format', () => {
  it('fills in each missing field added since format 1, and only those', () => {
    expect(upgradeNote({ id: 1, text: 'old' })).to.deep.equal({ id: 1, text: 'old', pinned: false, labels: [] });
    expect(upgradeNote({ id: 2, text: 'half', pinned: true })).to.deep.equal({
      id: 2,
      text: 'half',
      pinned: true,
      labels: [],
    });
    expect(upgradeNote({ id: 3, text: 'other half', labels: ['x'] })).to.deep.equal({
      id: 3,
      text: 'other half',
      pinned: false,
      labels: ['x'],
    });
  });

  it('gives back a complete record as it is', () => {
    const full: Note = { id: 4, text: 'new', pinned: false, labels: [] };
    expect(upgradeNote(full)).to.equal(full);
  });

  it('a ticket stored before custom fields has none; a message stored before attachments has none', () => {
    const { customFields: _c, ...oldTicket } = aTicket({ id: 9 });
    expect(upgradeTicket(oldTicket)).to.deep.equal(aTicket({ id: 9 }));
    const ticket: Ticket = aTicket({ id: 9, customFields: { 1: 'gold' } });
    expect(upgradeTicket(ticket)).to.equal(ticket);
    const { attachments: _a, ...oldMessage } = aMessage();
    expect(upgradeMessage(oldMessage)).to.deep.equal(aMessage());
    const message: Message = aMessage();
    expect(upgradeMessage(message)).to.equal(message);
    const group = aGroup();
    expect(upgradeGroup(group)).to.equal(group);
  });
});
