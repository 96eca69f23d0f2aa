import { patchTicketField, type TicketFieldDefinition, type TicketFieldId } from '@support/domain';
import { expect } from 'chai';
import { propertyFields } from './custom-field-arbitraries.js';
import { aTicket, minutes, T0 } from './mothers.js';
import { aFilter, sortOf } from './reference-search.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

const fieldAt = (i: number): TicketFieldDefinition => {
  const f = propertyFields[i];
  if (f === undefined) throw new Error(`no property field ${i}`);
  return f;
};

/** The TicketFieldRepository port's promises (contract §10), for any store. */
export function describeTicketFieldRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: TicketFieldRepository contract`, () => {
    const store = freshStorePerTest(makeStore);
    const fields = () => store().ticketFields;

    it('stores definitions and lists them by position, then id; gives each back as stored', async () => {
      const tier = { ...fieldAt(0), position: 5 };
      const seats = { ...fieldAt(2), position: 1 };
      const vip = { ...fieldAt(5), position: 1 };
      for (const f of [tier, seats, vip]) expect(await fields().insert(f, 100)).to.equal('ok');
      expect((await fields().list()).map((f) => f.key)).to.deep.equal(['seats', 'vip', 'tier']);
      expect(await fields().findById(tier.id)).to.deep.equal(tier);
      expect(await fields().findById(77 as TicketFieldId)).to.equal(null);
    });

    it('refuses a key in use and a definition past the limit, storing nothing', async () => {
      expect(await fields().insert(fieldAt(0), 2)).to.equal('ok');
      expect(await fields().insert({ ...fieldAt(1), key: fieldAt(0).key }, 2)).to.equal('key_taken');
      expect(await fields().insert(fieldAt(1), 2)).to.equal('ok');
      expect(await fields().insert(fieldAt(2), 2)).to.equal('too_many');
      expect((await fields().list()).map((f) => f.id)).to.deep.equal([1, 2]);
    });

    it('updates over the expected version only, and records ticket_field.* events', async () => {
      const { newest } = await store().events.bounds();
      await fields().insert(fieldAt(0), 100);
      const changed = patchTicketField(fieldAt(0), { title: 'Plan' }, T0 + minutes(1));
      if (changed._tag === 'Left') throw new Error('refused');
      expect(await fields().update(changed.right, 2)).to.equal(false);
      expect(await fields().update(changed.right, 1)).to.equal(true);
      expect(await fields().findById(fieldAt(0).id)).to.deep.equal(changed.right);
      expect(await fields().delete(fieldAt(0).id, T0 + minutes(2))).to.equal(true);
      expect(await fields().delete(fieldAt(0).id, T0 + minutes(2))).to.equal(false);
      const events = await store().events.after(newest, 10);
      expect(events.map((e) => e.type)).to.deep.equal([
        'ticket_field.created',
        'ticket_field.updated',
        'ticket_field.deleted',
      ]);
      expect(events[2]?.data).to.equal(null);
    });

    it('a deleted field frees its key; its values match no query of a new field, and the tickets stay as they were', async () => {
      const tier = fieldAt(0);
      await fields().insert(tier, 100);
      const t = aTicket({ id: 1, customFields: { [tier.id]: 'a' } });
      await store().tickets.insert(t);
      const condition = (fieldId: number) =>
        aFilter({ custom: [{ kind: 'in', fieldId, all: false, values: ['a'], none: false }] });
      expect((await store().tickets.search(condition(tier.id), sortOf('id'), 0, 10)).total).to.equal(1);
      expect(await store().tickets.countHolding(tier.id, ['a', 'c'])).to.equal(1);
      await fields().delete(tier.id, T0);
      const again = { ...tier, id: 42 as TicketFieldId };
      expect(await fields().insert(again, 100)).to.equal('ok');
      expect((await store().tickets.search(condition(again.id), sortOf('id'), 0, 10)).total).to.equal(0);
      expect(await store().tickets.countHolding(again.id, ['a'])).to.equal(0);
      expect(await store().tickets.findById(t.id)).to.deep.equal(t);
    });
  });
}
