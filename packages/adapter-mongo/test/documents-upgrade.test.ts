import { groupUpgrades, messageUpgrades, ticketUpgrades, userUpgrades } from '@support/domain';
import { aGroup, aMessage, aTicket, aUser } from '@support/domain/testing';
import { expect } from 'chai';
import {
  fromGroupDocument,
  fromMessageDocument,
  fromTicketDocument,
  fromUserDocument,
  toGroupDocument,
  toMessageDocument,
  toTicketDocument,
  toUserDocument,
} from '../src/documents.js';

// The Mongo adapter's mappers give a field added since the first format, absent from a
// document written before it, the domain's upgrade default (one test per such field, none
// yet), and read a current document back as written.

const ticket = aTicket({ id: 7, tags: ['printer'], assignedUserId: 1, groupId: 2, state: 'closed' });
const message = aMessage({ ticketId: 7, number: 1, internal: true });
const user = aUser({ id: 1, groupIds: [2] });
const group = aGroup({ id: 2, description: 'Second line' });

const without = <D extends object>(d: D, field: string): D =>
  Object.fromEntries(Object.entries(d).filter(([k]) => k !== field)) as D;

describe('Mongo documents are read through the upgrade step', () => {
  it('a ticket, a message, a user and a group of the current format read back as written', () => {
    expect(fromTicketDocument(toTicketDocument(ticket))).to.deep.equal(ticket);
    expect(fromMessageDocument(toMessageDocument(message))).to.deep.equal(message);
    expect(fromUserDocument(toUserDocument(user))).to.deep.equal(user);
    expect(fromGroupDocument(toGroupDocument(group))).to.deep.equal(group);
  });

  for (const [field, value] of Object.entries(ticketUpgrades))
    it(`a ticket document written before ${field} existed reads back with ${JSON.stringify(value)}`, () => {
      expect(fromTicketDocument(without(toTicketDocument(ticket), field))).to.deep.equal({ ...ticket, [field]: value });
    });
  for (const [field, value] of Object.entries(messageUpgrades))
    it(`a message document written before ${field} existed reads back with ${JSON.stringify(value)}`, () => {
      expect(fromMessageDocument(without(toMessageDocument(message), field))).to.deep.equal({
        ...message,
        [field]: value,
      });
    });
  for (const [field, value] of Object.entries(userUpgrades))
    it(`a user document written before ${field} existed reads back with ${JSON.stringify(value)}`, () => {
      expect(fromUserDocument(without(toUserDocument(user), field))).to.deep.equal({ ...user, [field]: value });
    });
  for (const [field, value] of Object.entries(groupUpgrades))
    it(`a group document written before ${field} existed reads back with ${JSON.stringify(value)}`, () => {
      expect(fromGroupDocument(without(toGroupDocument(group), field))).to.deep.equal({ ...group, [field]: value });
    });
});
