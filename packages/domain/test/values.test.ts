import { expect } from 'chai';
import type * as t from 'io-ts';
import {
  eventTypes,
  groupValues,
  limits,
  messageValues,
  ticketValues,
  toFieldErrors,
  userValues,
  webhookValues,
  type FieldError,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// The rule of each writable value (contract §4), at its bounds and one past them.

const refusal = <A, O>(codec: t.Type<A, O>, value: unknown): [string, string][] =>
  toFieldErrors(leftOf(codec.decode(value))).map((e: FieldError) => [e.code, e.message]);
const x = (n: number): string => 'x'.repeat(n);

describe('domain: the values of a ticket', () => {
  it('bound the subject to 1-200 characters, not blank', () => {
    expect(rightOf(ticketValues.subject.decode(x(200)))).to.have.length(200);
    expect(refusal(ticketValues.subject, x(201))).to.deep.equal([
      ['invalid_length', 'must be 1 to 200 characters long (got 201)'],
    ]);
    expect(refusal(ticketValues.subject, '')).to.deep.equal([
      ['invalid_length', 'must be 1 to 200 characters long (got 0)'],
    ]);
    expect(refusal(ticketValues.subject, '  ')).to.deep.equal([['invalid_value', 'must not be blank']]);
  });

  it('bound the summary to 0-10000 characters, blank allowed', () => {
    expect(rightOf(ticketValues.summary.decode(''))).to.equal('');
    expect(rightOf(ticketValues.summary.decode(' '))).to.equal(' ');
    expect(rightOf(ticketValues.summary.decode(x(10000)))).to.have.length(10000);
    expect(refusal(ticketValues.summary, x(10001))).to.deep.equal([
      ['invalid_length', 'must be at most 10000 characters long (got 10001)'],
    ]);
  });

  it('take a state and a priority of their sets', () => {
    expect(rightOf(ticketValues.state.decode('pending'))).to.equal('pending');
    expect(refusal(ticketValues.state, 'solved')).to.deep.equal([
      ['invalid_value', 'must be one of: open, pending, closed'],
    ]);
    expect(rightOf(ticketValues.priority.decode('urgent'))).to.equal('urgent');
    expect(refusal(ticketValues.priority, 'asap')).to.deep.equal([
      ['invalid_value', 'must be one of: low, normal, high, urgent'],
    ]);
  });

  it('take up to 50 distinct tags of 1-50 characters, not blank', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
    expect(rightOf(ticketValues.tags.decode(fifty))).to.deep.equal(fifty);
    expect(rightOf(ticketValues.tags.decode([...fifty.slice(0, 49), 't0']))).to.deep.equal(fifty.slice(0, 49));
    expect(refusal(ticketValues.tags, [...fifty, 'one more'])).to.deep.equal([
      ['invalid_length', 'must hold at most 50 values (got 51)'],
    ]);
    expect(refusal(ticketValues.tags, [...fifty, 't0'])).to.deep.equal([
      ['invalid_length', 'must hold at most 50 values (got 51)'],
    ]);
    expect(rightOf(ticketValues.tags.decode([x(50)]))).to.deep.equal([x(50)]);
    expect(refusal(ticketValues.tags, [x(51)])).to.deep.equal([
      ['invalid_length', 'must be 1 to 50 characters long (got 51)'],
    ]);
    expect(refusal(ticketValues.tags, [' '])).to.deep.equal([['invalid_value', 'must not be blank']]);
    expect(refusal(ticketValues.tags, 'a')).to.deep.equal([['invalid_type', 'must be an array (list of tags)']]);
  });

  it('refer to a user and a group by their integer ids', () => {
    expect(rightOf(ticketValues.user.decode(4))).to.equal(4);
    expect(refusal(ticketValues.user, 'me')).to.deep.equal([['invalid_type', 'must be the integer id of a user']]);
    expect(rightOf(ticketValues.group.decode(2))).to.equal(2);
    expect(refusal(ticketValues.group, 0)).to.deep.equal([['invalid_type', 'must be the integer id of a group']]);
  });
});

describe('domain: the values of a message', () => {
  it('an upload by its integer id, with its article', () => {
    expect(refusal(messageValues.attachmentIds, ['a'])).to.deep.equal([
      ['invalid_type', 'must be the integer id of an upload'],
    ]);
  });

  it('bound the body to 1-50000 characters, not blank, and take internal as a boolean', () => {
    expect(rightOf(messageValues.body.decode(x(50000)))).to.have.length(50000);
    expect(refusal(messageValues.body, x(50001))).to.deep.equal([
      ['invalid_length', 'must be 1 to 50000 characters long (got 50001)'],
    ]);
    expect(refusal(messageValues.body, '\n')).to.deep.equal([['invalid_value', 'must not be blank']]);
    expect(rightOf(messageValues.internal.decode(true))).to.equal(true);
    expect(refusal(messageValues.internal, 1)).to.deep.equal([['invalid_type', 'must be true or false']]);
  });
});

describe('domain: the values of a user', () => {
  it('bound the name to 1-200 characters, not blank', () => {
    expect(rightOf(userValues.name.decode(x(200)))).to.have.length(200);
    expect(refusal(userValues.name, x(201))).to.deep.equal([
      ['invalid_length', 'must be 1 to 200 characters long (got 201)'],
    ]);
    expect(refusal(userValues.name, ' ')).to.deep.equal([['invalid_value', 'must not be blank']]);
  });

  it('bound the password to 8-256 characters, any of them', () => {
    expect(rightOf(userValues.password.decode('        '))).to.equal('        ');
    expect(rightOf(userValues.password.decode(x(256)))).to.have.length(256);
    expect(refusal(userValues.password, x(7))).to.deep.equal([
      ['invalid_length', 'must be 8 to 256 characters long (got 7)'],
    ]);
    expect(refusal(userValues.password, x(257))).to.deep.equal([
      ['invalid_length', 'must be 8 to 256 characters long (got 257)'],
    ]);
  });

  it('take an e-mail address, a role, and up to 100 distinct group ids', () => {
    expect(rightOf(userValues.email.decode('a@example.com'))).to.equal('a@example.com');
    expect(refusal(userValues.role, 'root')).to.deep.equal([
      ['invalid_value', 'must be one of: customer, agent, admin'],
    ]);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(rightOf(userValues.groupIds.decode(hundred))).to.deep.equal(hundred);
    expect(rightOf(userValues.groupIds.decode([1, 2, 1]))).to.deep.equal([1, 2]);
    expect(refusal(userValues.groupIds, [...hundred, 101])).to.deep.equal([
      ['invalid_length', 'must hold at most 100 values (got 101)'],
    ]);
    expect(refusal(userValues.groupIds, {})).to.deep.equal([['invalid_type', 'must be an array (list of group ids)']]);
  });
});

describe('domain: the values of a group', () => {
  it('bound the name to 1-100 characters, not blank, and the description to 0-1000', () => {
    expect(rightOf(groupValues.name.decode(x(100)))).to.have.length(100);
    expect(refusal(groupValues.name, x(101))).to.deep.equal([
      ['invalid_length', 'must be 1 to 100 characters long (got 101)'],
    ]);
    expect(refusal(groupValues.name, '\t')).to.deep.equal([['invalid_value', 'must not be blank']]);
    expect(rightOf(groupValues.description.decode(''))).to.equal('');
    expect(rightOf(groupValues.description.decode(x(1000)))).to.have.length(1000);
    expect(refusal(groupValues.description, x(1001))).to.deep.equal([
      ['invalid_length', 'must be at most 1000 characters long (got 1001)'],
    ]);
  });
});

describe('domain: the values of a webhook', () => {
  it('take an absolute http(s) URL of 1-2048 characters without credentials', () => {
    for (const ok of [
      'https://hooks.example.com/in',
      'http://10.0.0.1:8080/x?y=1',
      `https://example.com/${x(2048 - 'https://example.com/'.length)}`,
    ]) {
      expect(rightOf(webhookValues.url.decode(ok))).to.equal(ok);
      expect(webhookValues.url.is(ok)).to.equal(true);
    }
    expect(webhookValues.url.is(3)).to.equal(false);
    expect(webhookValues.url.encode('https://a.example')).to.equal('https://a.example');
    expect(webhookValues.url.name).to.equal('absolute http(s) URL of 1-2048 characters');
    const refusals: [unknown, [string, string]][] = [
      [42, ['invalid_type', 'must be a string']],
      ['', ['invalid_length', 'must be 1 to 2048 characters long']],
      [
        `https://example.com/${x(2049 - 'https://example.com/'.length)}`,
        ['invalid_length', 'must be 1 to 2048 characters long'],
      ],
      ['/relative/path', ['invalid_value', 'must be an absolute URL']],
      ['ftp://example.com/in', ['invalid_value', 'must be an https:// URL']],
      ['https://user@example.com/in', ['invalid_value', 'must not carry credentials']],
      ['https://:secret@example.com/in', ['invalid_value', 'must not carry credentials']],
    ];
    for (const [value, expected] of refusals)
      expect(refusal(webhookValues.url, value), String(value)).to.deep.equal([expected]);
  });

  it('subscribe to at least one event type or "*", each once', () => {
    expect(rightOf(webhookValues.events.decode(['*']))).to.deep.equal(['*']);
    expect(rightOf(webhookValues.events.decode(['ticket.created', 'ticket.created', 'user.deleted']))).to.deep.equal([
      'ticket.created',
      'user.deleted',
    ]);
    expect(rightOf(webhookValues.events.decode(['*', ...eventTypes]))).to.have.length(eventTypes.length + 1);
    expect(refusal(webhookValues.events, [])).to.deep.equal([
      ['invalid_length', 'must name at least one event type, or "*" for all'],
    ]);
    expect(refusal(webhookValues.events, ['ticket.exploded'])[0]).to.deep.equal([
      'invalid_value',
      `must be one of: *, ${eventTypes.join(', ')}`,
    ]);
    expect(refusal(webhookValues.events, 'ticket.created')).to.deep.equal([
      ['invalid_type', 'must be an array (list of event types)'],
    ]);
    expect(webhookValues.events.is(['*'])).to.equal(true);
    expect(webhookValues.events.is([])).to.equal(false);
    expect(webhookValues.events.is(['nope'])).to.equal(false);
    expect(webhookValues.events.encode(['*'])).to.deep.equal(['*']);
    expect(webhookValues.events.name).to.equal('list of event types');
  });

  it('bound the description to 0-1000 characters and take active as a boolean', () => {
    expect(rightOf(webhookValues.description.decode(''))).to.equal('');
    expect(refusal(webhookValues.description, x(1001))).to.deep.equal([
      ['invalid_length', 'must be at most 1000 characters long (got 1001)'],
    ]);
    expect(rightOf(webhookValues.active.decode(false))).to.equal(false);
  });

  it('replay after a seq of the feed: a non-negative safe integer', () => {
    for (const ok of [0, 1, Number.MAX_SAFE_INTEGER]) {
      expect(rightOf(webhookValues.after.decode(ok))).to.equal(ok);
      expect(webhookValues.after.is(ok)).to.equal(true);
    }
    for (const bad of [-1, 1.5, '3', Number.MAX_SAFE_INTEGER + 1, null]) {
      expect(refusal(webhookValues.after, bad)).to.deep.equal([
        ['invalid_type', 'must be a non-negative integer (a seq of the change feed)'],
      ]);
      expect(webhookValues.after.is(bad)).to.equal(false);
    }
    expect(webhookValues.after.encode(4)).to.equal(4);
    expect(webhookValues.after.name).to.equal('non-negative integer');
  });
});

describe('domain: the limits', () => {
  it('are the contract’s numbers', () => {
    expect(limits).to.deep.equal({
      subject: { min: 1, max: 200 },
      summary: { min: 0, max: 10000 },
      tag: { min: 1, max: 50 },
      tags: 50,
      body: { min: 1, max: 50000 },
      name: { min: 1, max: 200 },
      password: { min: 8, max: 256 },
      groupName: { min: 1, max: 100 },
      description: { min: 0, max: 1000 },
      groupIds: 100,
      webhookUrl: { min: 1, max: 2048 },
    });
  });

  it('name each rule as a client reads it', () => {
    expect(
      [ticketValues.subject, ticketValues.summary, ticketValues.state, ticketValues.priority, ticketValues.tags].map(
        (c) => c.name,
      ),
    ).to.deep.equal([
      'string of 1-200 characters',
      'string of 0-10000 characters',
      'ticket state',
      'priority',
      'list of tags',
    ]);
    expect(
      [
        messageValues.body,
        userValues.name,
        userValues.password,
        userValues.role,
        userValues.groupIds,
        groupValues.name,
        groupValues.description,
      ].map((c) => c.name),
    ).to.deep.equal([
      'string of 1-50000 characters',
      'string of 1-200 characters',
      'string of 8-256 characters',
      'role',
      'list of group ids',
      'string of 1-100 characters',
      'string of 0-1000 characters',
    ]);
  });
});
