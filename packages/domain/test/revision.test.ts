import { expect } from 'chai';
import { revise, sameItems } from '../src/index.js';
import { aGroup, aMessage, aTicket, aUser, MINUTE, T0 } from '../test-support/mothers.js';

describe('the write rule (revise)', () => {
  it('applies the change, moves updated_at to now and takes the next version, for every kind of record', () => {
    const later = T0 + MINUTE;
    expect(revise(aTicket({ version: 3 }), later, { subject: 'New' })).to.deep.equal({
      ...aTicket({ version: 3 }),
      subject: 'New',
      updatedAt: later,
      version: 4,
    });
    expect(revise(aMessage(), later, { body: 'Edited' })).to.deep.equal({
      ...aMessage(),
      body: 'Edited',
      updatedAt: later,
      version: 2,
    });
    expect(revise(aUser(), later, { name: 'Renamed' })).to.deep.equal({
      ...aUser(),
      name: 'Renamed',
      updatedAt: later,
      version: 2,
    });
    expect(revise(aGroup(), later, { name: 'Renamed' })).to.deep.equal({
      ...aGroup(),
      name: 'Renamed',
      updatedAt: later,
      version: 2,
    });
  });

  it('never moves updated_at back when `now` is earlier (a clock behind another process)', () => {
    const g = aGroup({ updatedAt: T0 + 2 * MINUTE, version: 5 });
    expect(revise(g, T0 + MINUTE, { description: 'x' })).to.deep.equal({ ...g, description: 'x', version: 6 });
  });

  it('leaves the record it was given as it was', () => {
    const u = aUser({ name: 'Before' });
    revise(u, T0 + MINUTE, { name: 'After' });
    expect(u).to.deep.equal(aUser({ name: 'Before' }));
  });
});

describe('sameItems', () => {
  it('is true for the same items in the same order only', () => {
    expect(sameItems([], [])).to.equal(true);
    expect(sameItems(['a', 'b'], ['a', 'b'])).to.equal(true);
    expect(sameItems(['a', 'b'], ['b', 'a'])).to.equal(false);
    expect(sameItems([1, 2], [1, 2, 3])).to.equal(false);
    expect(sameItems([1, 2, 3], [1, 2])).to.equal(false);
  });
});
