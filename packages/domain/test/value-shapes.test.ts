import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import {
  customFieldLimits as cf,
  fieldTypes,
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
  ticketFieldValues,
  ticketStates,
  ticketValues,
  userValues,
  webhookValues,
  type ValueShape,
} from '../src/index.js';

// Each value codec also states what it accepts as data (its shape), and the API document's JSON
// Schemas are derived from it: the shape must state the same limits the codec applies, taken
// from the same numbers, so the document cannot promise what the service refuses.

const text = (l: { min: number; max: number }, nonBlank: boolean): object => ({ kind: 'string', ...l, nonBlank });

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
    expect(ticketValues.user.shape).to.deep.equal({ kind: 'reference', what: 'a user' });
    expect(ticketValues.group.shape).to.deep.equal({ kind: 'reference', what: 'a group' });
    expect(userValues.email.shape).to.deep.equal({ kind: 'email' });
    expect(webhookValues.url.shape).to.deep.equal({ kind: 'url', ...limits.webhookUrl });
    expect(webhookValues.after.shape).to.deep.equal({ kind: 'integer', min: 0 });
    expect(personalTokenValues.expiresAt.shape).to.deep.equal({ kind: 'date-time' });
    expect(nullable(ticketValues.user).shape).to.deep.equal({
      kind: 'nullable',
      value: { kind: 'reference', what: 'a user' },
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
      item: { kind: 'reference', what: 'a group' },
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

  it("a custom field's definition: its key's pattern, the position's bound, the options as {value, title} objects", () => {
    const f = ticketFieldValues;
    expect(f.key.shape).to.deep.equal({ kind: 'string', ...cf.key, nonBlank: false, pattern: '^[a-z][a-z0-9_]*$' });
    expect(f.title.shape).to.deep.equal(text(cf.title, true));
    expect(f.type.shape).to.deep.equal({ kind: 'enum', values: fieldTypes });
    expect(f.description.shape).to.deep.equal(text(cf.description, false));
    expect(f.pattern.shape).to.deep.equal(text(cf.pattern, false));
    expect(f.position.shape).to.deep.equal({ kind: 'integer', min: 0, max: cf.position });
    for (const flag of [f.required, f.customerVisible, f.customerEditable])
      expect(flag.shape).to.deep.equal({ kind: 'boolean' });
    expect(f.options.shape).to.deep.equal({
      kind: 'options',
      maxItems: cf.options,
      value: { ...text(cf.optionValue, true), pattern: '^(?!none$)[^,]*[^,\\s][^,]*$' },
      title: text(cf.optionTitle, true),
    });
  });

  it('a pattern a shape states accepts what its codec accepts, and refuses what it refuses (within the length)', () => {
    const f = ticketFieldValues;
    const patternOf = (shape: ValueShape): RegExp => {
      if (shape.kind !== 'string' || shape.pattern === undefined) throw new Error(`no pattern: ${shape.kind}`);
      return new RegExp(shape.pattern, 'u');
    };
    const keyPattern = patternOf(f.key.shape);
    for (const key of ['a', 'order_no', 'x9_', 'A', '9a', '_a', 'a-b', 'a b', 'é'])
      expect(keyPattern.test(key), key).to.equal(E.isRight(f.key.decode(key)));
    const shape = f.options.shape;
    if (shape.kind !== 'options') throw new Error('options are not shaped as options');
    const valuePattern = patternOf(shape.value);
    for (const value of ['vip', 'none2', 'nonE', ' a ', 'none', 'a,b', ',', ' ,', ' ', '\t', '\u00a0'])
      expect(valuePattern.test(value), JSON.stringify(value)).to.equal(E.isRight(f.options.decode([{ value }])));
  });
});
