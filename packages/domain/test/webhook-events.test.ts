import { expect } from 'chai';
import {
  afterAttempt,
  deliveryId,
  eventActions,
  eventActorId,
  eventResources,
  eventTypes,
  groupDeletedEvent,
  groupEvent,
  messageEvent,
  replayFrom,
  subscribesTo,
  systemActor,
  ticketEvent,
  userDeletedEvent,
  userEvent,
  webhookSecret,
  type Webhook,
  type WebhookId,
} from '../src/index.js';
import { aGroup, aMessage, aTicket, aUser, userId } from '../test-support/mothers.js';

const aWebhook = (extra: Partial<Webhook> = {}): Webhook => ({
  id: 3 as WebhookId,
  url: 'https://hooks.example.com/in',
  events: ['*'],
  description: '',
  active: true,
  secret: 'whsec_x',
  lastDeliveredSeq: 10,
  failedAttempts: 0,
  nextAttemptAt: null,
  createdAt: 0,
  updatedAt: 0,
  version: 1,
  ...extra,
});

/** The service's own change: what every event builder records without an actor. */
const system = { type: 'system' } as const;

describe('domain: change events', () => {
  it('say whose change it was: the user behind a request (with or without a token), none for the service', () => {
    expect(eventActorId({ type: 'user', id: userId(4) })).to.equal(4);
    expect(eventActorId({ type: 'user', id: userId(4), token: { id: 2, name: 'ci' } })).to.equal(4);
    expect(eventActorId(systemActor)).to.equal(null);
    expect(systemActor).to.deep.equal({ type: 'system' });
  });

  it('name every resource and action: 15 types, resource by resource', () => {
    expect(eventResources).to.deep.equal(['ticket', 'message', 'user', 'group', 'ticket_field']);
    expect(eventActions).to.deep.equal(['created', 'updated', 'deleted']);
    expect(eventTypes).to.deep.equal([
      'ticket.created',
      'ticket.updated',
      'ticket.deleted',
      'message.created',
      'message.updated',
      'message.deleted',
      'user.created',
      'user.updated',
      'user.deleted',
      'group.created',
      'group.updated',
      'group.deleted',
      'ticket_field.created',
      'ticket_field.updated',
      'ticket_field.deleted',
    ]);
  });

  it('keep a message as written, inside its ticket; a soft-deleted message is message.deleted without data', () => {
    const m = aMessage();
    const subject = { resource: 'message', ticketId: m.ticketId, id: m.number };
    expect(messageEvent('created', m, 4)).to.deep.equal({
      type: 'message.created',
      subject,
      actor: system,
      occurredAt: 4,
      data: { resource: 'message', message: m },
    });
    expect(messageEvent('updated', m, 5)).to.have.property('type', 'message.updated');
    expect(messageEvent('updated', { ...m, deletedAt: 6 }, 6)).to.deep.equal({
      type: 'message.deleted',
      subject,
      actor: system,
      occurredAt: 6,
      data: null,
    });
  });

  it('keep a ticket as created', () => {
    const t = aTicket();
    expect(ticketEvent('created', t, 2)).to.deep.equal({
      type: 'ticket.created',
      subject: { resource: 'ticket', id: t.id },
      actor: system,
      occurredAt: 2,
      data: { resource: 'ticket', ticket: t },
    });
  });

  it('keep a user without its hash, a group as written, and a deletion of either without data', () => {
    const u = aUser();
    const { passwordHash: _hash, ...snapshot } = u;
    expect(userEvent('updated', u, 3)).to.deep.equal({
      type: 'user.updated',
      subject: { resource: 'user', id: u.id },
      actor: system,
      occurredAt: 3,
      data: { resource: 'user', user: snapshot },
    });
    expect(userDeletedEvent(u.id, 4)).to.deep.equal({
      type: 'user.deleted',
      subject: { resource: 'user', id: u.id },
      actor: system,
      occurredAt: 4,
      data: null,
    });
    const g = aGroup();
    expect(groupEvent('created', g, 5)).to.deep.equal({
      type: 'group.created',
      subject: { resource: 'group', id: g.id },
      actor: system,
      occurredAt: 5,
      data: { resource: 'group', group: g },
    });
    expect(groupDeletedEvent(g.id, 6)).to.deep.equal({
      type: 'group.deleted',
      subject: { resource: 'group', id: g.id },
      actor: system,
      occurredAt: 6,
      data: null,
    });
    // A request's actor, with the personal token it used, is kept as given (contract §8.3).
    const admin = { type: 'user', id: u.id, token: { id: 2, name: 'CRM sync' } } as const;
    expect(userDeletedEvent(u.id, 7, admin)).to.have.deep.property('actor', admin);
    expect(groupEvent('updated', g, 8, admin)).to.have.deep.property('actor', admin);
  });

  it('keep a ticket as written; a soft-deleted ticket is ticket.deleted without data', () => {
    const t = aTicket();
    expect(ticketEvent('updated', t, 5)).to.deep.equal({
      type: 'ticket.updated',
      subject: { resource: 'ticket', id: t.id },
      actor: { type: 'system' },
      occurredAt: 5,
      data: { resource: 'ticket', ticket: t },
    });
    expect(ticketEvent('updated', { ...t, deletedAt: 9 }, 9)).to.deep.equal({
      type: 'ticket.deleted',
      subject: { resource: 'ticket', id: t.id },
      actor: { type: 'system' },
      occurredAt: 9,
      data: null,
    });
  });

  it('never keep a password hash', () => {
    const e = userEvent('created', aUser({ passwordHash: 'argon2id$v=19$secret' }), 1);
    expect(JSON.stringify(e)).not.to.include('argon2id');
    expect(e.data).to.have.nested.property('user.email');
  });

  it('reach a webhook when it subscribed to their type or to "*"', () => {
    expect(subscribesTo(['*'], 'group.deleted')).to.equal(true);
    expect(subscribesTo(['ticket.created'], 'ticket.created')).to.equal(true);
    expect(subscribesTo(['ticket.created'], 'ticket.updated')).to.equal(false);
    expect(subscribesTo([], 'ticket.created')).to.equal(false);
    expect(subscribesTo(['user.created', '*'], 'group.deleted')).to.equal(true);
  });
});

describe('domain: webhooks', () => {
  it('make a Standard Webhooks secret from 32 random bytes given as base64url', () => {
    const random = Buffer.alloc(32, 0xfb).toString('base64url');
    const secret = webhookSecret(random);
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).to.deep.equal(Buffer.alloc(32, 0xfb));
  });

  it('name a delivery by webhook and seq, the same on every retry', () => {
    expect(deliveryId(3 as WebhookId, 42)).to.equal('msg_3_42');
  });

  it('move the cursor past a delivered event and reset the failures', () => {
    expect(
      afterAttempt(aWebhook({ failedAttempts: 2, nextAttemptAt: 7 }), 11, { delivered: true }, 100, [5]),
    ).to.include({
      lastDeliveredSeq: 11,
      failedAttempts: 0,
      nextAttemptAt: null,
      active: true,
    });
  });

  it('wait retrySeconds[n-1] after the n-th failure, and switch off after the last', () => {
    const schedule = [5, 30];
    const first = afterAttempt(aWebhook(), 11, { delivered: false }, 1000, schedule);
    expect(first).to.include({ lastDeliveredSeq: 10, failedAttempts: 1, nextAttemptAt: 6000, active: true });
    const second = afterAttempt({ ...aWebhook(), ...first }, 11, { delivered: false }, 6000, schedule);
    expect(second).to.include({ failedAttempts: 2, nextAttemptAt: 36000, active: true });
    const third = afterAttempt({ ...aWebhook(), ...second }, 11, { delivered: false }, 36000, schedule);
    expect(third).to.include({ lastDeliveredSeq: 10, failedAttempts: 0, nextAttemptAt: null, active: false });
  });

  it('replay from a seq: the cursor goes there, failures are forgotten, the webhook is on', () => {
    expect(replayFrom(aWebhook({ active: false, failedAttempts: 3, nextAttemptAt: 99 }), 4)).to.include({
      lastDeliveredSeq: 4,
      failedAttempts: 0,
      nextAttemptAt: null,
      active: true,
    });
  });
});
