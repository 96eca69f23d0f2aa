import { expect } from 'chai';
import {
  applyGroupChanges,
  applyMessageChanges,
  applyUserChanges,
  createMessage,
  leaveGroup,
  deleteMessage,
  patchMessageChanges,
  replacementMessageChanges,
  type Email,
} from '../src/index.js';
import {
  aGroup,
  aMessage,
  aUser,
  groupId,
  messageNumber,
  MINUTE,
  T0,
  ticketId,
  userId,
} from '../test-support/mothers.js';

describe('message', () => {
  it('starts public (not internal), version 1, numbered as given', () => {
    expect(createMessage(ticketId(1), messageNumber(3), { body: 'hi' }, userId(2), T0)).to.deep.equal({
      ticketId: 1,
      number: 3,
      body: 'hi',
      authorId: 2,
      internal: false,
      attachments: [],
      createdAt: T0,
      updatedAt: T0,
      deletedAt: null,
      version: 1,
    });
    expect(
      createMessage(ticketId(1), messageNumber(1), { body: 'hi', internal: true }, userId(2), T0).internal,
    ).to.equal(true);
  });

  it('PUT returns an omitted internal flag to false', () => {
    expect(replacementMessageChanges({ body: 'x' })).to.deep.equal({ body: 'x', internal: false });
  });

  it('PATCH changes only the given fields; internal null returns to false', () => {
    const m = aMessage({ body: 'old', internal: true });
    expect(patchMessageChanges(m, {})).to.deep.equal({ body: 'old', internal: true });
    expect(patchMessageChanges(m, { body: 'new' })).to.deep.equal({ body: 'new', internal: true });
    expect(patchMessageChanges(m, { internal: null })).to.deep.equal({ body: 'old', internal: false });
  });

  it('keeps the very same message when nothing changes', () => {
    const m = aMessage({ body: 'same', internal: true });
    expect(applyMessageChanges(m, { body: 'same', internal: true }, T0 + MINUTE)).to.equal(m);
  });

  it('bumps version and updated_at when something changes', () => {
    const m = aMessage({ body: 'old' });
    expect(applyMessageChanges(m, { body: 'new', internal: false }, T0 + MINUTE)).to.deep.equal({
      ...m,
      body: 'new',
      updatedAt: T0 + MINUTE,
      version: 2,
    });
    expect(applyMessageChanges(m, { body: 'old', internal: true }, T0 + MINUTE).version).to.equal(2);
  });

  it('deleting marks it deleted and bumps the version', () => {
    const m = aMessage();
    expect(deleteMessage(m, T0 + MINUTE)).to.deep.equal({
      ...m,
      deletedAt: T0 + MINUTE,
      updatedAt: T0 + MINUTE,
      version: 2,
    });
  });
});

describe('user', () => {
  const same = (u: ReturnType<typeof aUser>) => ({
    name: u.name,
    email: u.email,
    role: u.role,
    groupIds: [...u.groupIds],
    passwordHash: u.passwordHash,
  });

  it('keeps the very same user when nothing changes (group ids compared by value)', () => {
    const u = aUser({ groupIds: [1, 2] });
    expect(applyUserChanges(u, same(u), T0 + MINUTE)).to.equal(u);
  });

  it('bumps version and updated_at when any field changes', () => {
    const u = aUser({ groupIds: [1] });
    const changes = [
      { name: 'Alice Pleasance' },
      { email: 'alice@example.org' as Email },
      { role: 'agent' as const },
      { groupIds: [groupId(1), groupId(2)] },
      { passwordHash: 'another hash' },
    ];
    for (const change of changes) {
      const next = applyUserChanges(u, { ...same(u), ...change }, T0 + MINUTE);
      expect(next, JSON.stringify(change)).to.deep.equal({ ...u, ...change, updatedAt: T0 + MINUTE, version: 2 });
    }
  });

  it('leaving a group drops it, moves updated_at forward (never back) and bumps the version', () => {
    const u = aUser({ groupIds: [1, 2, 3], version: 4 });
    expect(leaveGroup(u, groupId(2), T0 + MINUTE)).to.deep.equal({
      ...u,
      groupIds: [1, 3],
      updatedAt: T0 + MINUTE,
      version: 5,
    });
    const later = aUser({ groupIds: [2], updatedAt: T0 + 2 * MINUTE });
    expect(leaveGroup(later, groupId(2), T0 + MINUTE)).to.deep.equal({ ...later, groupIds: [], version: 2 });
  });

  it('a user outside the group stays the very same user', () => {
    const u = aUser({ groupIds: [1] });
    expect(leaveGroup(u, groupId(2), T0 + MINUTE)).to.equal(u);
  });
});

describe('group', () => {
  it('keeps the very same group when nothing changes', () => {
    const g = aGroup({ name: 'Hardware', description: 'Printers' });
    expect(applyGroupChanges(g, { name: 'Hardware', description: 'Printers' }, T0 + MINUTE)).to.equal(g);
  });

  it('bumps version and updated_at when a field changes', () => {
    const g = aGroup({ name: 'Hardware', description: '' });
    expect(applyGroupChanges(g, { name: 'Hardware', description: 'Printers' }, T0 + MINUTE)).to.deep.equal({
      ...g,
      description: 'Printers',
      updatedAt: T0 + MINUTE,
      version: 2,
    });
    expect(applyGroupChanges(g, { name: 'Software', description: '' }, T0 + MINUTE).version).to.equal(2);
  });
});
