import { expect } from 'chai';
import {
  eventTypes,
  groupValues,
  limits,
  messageValues,
  nullable,
  personalTokenLimits,
  personalTokenValues,
  priorities,
  roles,
  scopes,
  ticketStates,
  ticketValues,
  userValues,
  webhookValues,
} from '../src/index.js';

// Each value codec also states what it accepts as data (its shape), and the API document's JSON
// Schemas are derived from it: the shape must state the same limits the codec applies, taken
// from the same numbers, so the document cannot promise what the service refuses.

const text = (l: { min: number; max: number }, nonBlank: boolean): unknown => ({ kind: 'string', ...l, nonBlank });

describe('domain: the shape each value codec states (what the API document says)', () => {
  it('text values: their bounds, and whether blank is refused', () => {
    expect(ticketValues.subject.shape).to.deep.equal(text(limits.subject, true));
    expect(ticketValues.summary.shape).to.deep.equal(text(limits.summary, false));
    expect(messageValues.body.shape).to.deep.equal(text(limits.body, true));
    expect(userValues.name.shape).to.deep.equal(text(limits.name, true));
    expect(userValues.password.shape).to.deep.equal(text(limits.password, false));
    expect(groupValues.name.shape).to.deep.equal(text(limits.groupName, true));
    expect(groupValues.description.shape).to.deep.equal(text(limits.description, false));
    expect(webhookValues.description.shape).to.deep.equal(text(limits.description, false));
    expect(personalTokenValues.name.shape).to.deep.equal(text(personalTokenLimits.name, true));
  });

  it('closed sets, booleans, references, e-mail addresses, URLs, feed positions and date-times', () => {
    expect(ticketValues.state.shape).to.deep.equal({ kind: 'enum', values: ticketStates });
    expect(ticketValues.priority.shape).to.deep.equal({ kind: 'enum', values: priorities });
    expect(userValues.role.shape).to.deep.equal({ kind: 'enum', values: roles });
    expect(messageValues.internal.shape).to.deep.equal({ kind: 'boolean' });
    expect(ticketValues.user.shape).to.deep.equal({ kind: 'reference', what: 'user' });
    expect(ticketValues.group.shape).to.deep.equal({ kind: 'reference', what: 'group' });
    expect(userValues.email.shape).to.deep.equal({ kind: 'email' });
    expect(webhookValues.url.shape).to.deep.equal({ kind: 'url', ...limits.webhookUrl });
    expect(webhookValues.after.shape).to.deep.equal({ kind: 'integer', min: 0 });
    expect(personalTokenValues.expiresAt.shape).to.deep.equal({ kind: 'date-time' });
    expect(nullable(ticketValues.user).shape).to.deep.equal({
      kind: 'nullable',
      value: { kind: 'reference', what: 'user' },
    });
  });

  it('lists: their items, at most how many distinct ones, and at least one where an empty list is refused', () => {
    expect(ticketValues.tags.shape).to.deep.equal({
      kind: 'list',
      item: text(limits.tag, true),
      maxItems: limits.tags,
      minItems: 0,
    });
    expect(userValues.groupIds.shape).to.deep.equal({
      kind: 'list',
      item: { kind: 'reference', what: 'group' },
      maxItems: limits.groupIds,
      minItems: 0,
    });
    expect(webhookValues.events.shape).to.deep.equal({
      kind: 'list',
      item: { kind: 'enum', values: ['*', ...eventTypes] },
      maxItems: eventTypes.length + 1,
      minItems: 1,
    });
    expect(personalTokenValues.scopes.shape).to.deep.equal({
      kind: 'list',
      item: { kind: 'enum', values: scopes },
      maxItems: scopes.length,
      minItems: 1,
    });
  });
});
