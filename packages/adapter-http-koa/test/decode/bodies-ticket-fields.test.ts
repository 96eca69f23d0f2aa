import { expect } from 'chai';
import {
  chars,
  decoded,
  emoji,
  errorsOf,
  messagesOf,
  tagList,
  ticketCreate,
  ticketPatch,
  ticketReplace,
} from '../support/body-decoders.js';

describe('request body codecs', () => {
  describe('ticket', () => {
    describe('subject', () => {
      it('is required, and null does not count as given', () => {
        expect(errorsOf(ticketCreate, {})).to.deep.equal([['subject', 'required']]);
        expect(errorsOf(ticketCreate, { subject: null })).to.deep.equal([['subject', 'required']]);
        expect(errorsOf(ticketReplace, {})).to.deep.equal([['subject', 'required']]);
      });

      it('holds 1 to 200 code points, an emoji counting as one', () => {
        expect(decoded(ticketCreate, { subject: 'a' })).to.deep.equal({ subject: 'a' });
        expect(decoded(ticketCreate, { subject: chars(200) })).to.deep.equal({ subject: chars(200) });
        expect(decoded(ticketCreate, { subject: emoji(200) })).to.deep.equal({ subject: emoji(200) });
        expect(errorsOf(ticketCreate, { subject: '' })).to.deep.equal([['subject', 'invalid_length']]);
        expect(errorsOf(ticketCreate, { subject: chars(201) })).to.deep.equal([['subject', 'invalid_length']]);
        expect(errorsOf(ticketCreate, { subject: emoji(201) })).to.deep.equal([['subject', 'invalid_length']]);
      });

      it('names the bounds and the actual length when too long', () => {
        const [message] = messagesOf(ticketCreate, { subject: emoji(201) });
        expect(message).to.include('200').and.to.include('201');
      });

      it('refuses a blank subject as an invalid value', () => {
        expect(errorsOf(ticketCreate, { subject: ' \t\n ' })).to.deep.equal([['subject', 'invalid_value']]);
      });

      it('must be a string', () => {
        expect(errorsOf(ticketCreate, { subject: 42 })).to.deep.equal([['subject', 'invalid_type']]);
        expect(errorsOf(ticketCreate, { subject: ['s'] })).to.deep.equal([['subject', 'invalid_type']]);
      });
    });

    it('summary holds 0 to 10000 characters', () => {
      expect(decoded(ticketCreate, { subject: 's', summary: '' })).to.deep.equal({ subject: 's', summary: '' });
      expect(decoded(ticketCreate, { subject: 's', summary: chars(10000) })).to.deep.equal({
        subject: 's',
        summary: chars(10000),
      });
      expect(errorsOf(ticketCreate, { subject: 's', summary: chars(10001) })).to.deep.equal([
        ['summary', 'invalid_length'],
      ]);
    });

    it('priority is one of low, normal, high, urgent', () => {
      for (const priority of ['low', 'normal', 'high', 'urgent']) {
        expect(decoded(ticketCreate, { subject: 's', priority })).to.deep.equal({ subject: 's', priority });
      }
      expect(errorsOf(ticketCreate, { subject: 's', priority: 'High' })).to.deep.equal([['priority', 'invalid_value']]);
      expect(errorsOf(ticketCreate, { subject: 's', priority: 2 })).to.deep.equal([['priority', 'invalid_type']]);
    });

    describe('tags', () => {
      it('holds at most 50 distinct tags', () => {
        expect(decoded(ticketCreate, { subject: 's', tags: tagList(50) })).to.deep.equal({
          subject: 's',
          tags: tagList(50),
        });
        expect(errorsOf(ticketCreate, { subject: 's', tags: tagList(51) })).to.deep.equal([['tags', 'invalid_length']]);
      });

      it('drops duplicates, keeping the first of each; the bound counts the list as sent (contract §11)', () => {
        expect(decoded(ticketCreate, { subject: 's', tags: ['b', 'a', 'b', 'c', 'a'] })).to.deep.equal({
          subject: 's',
          tags: ['b', 'a', 'c'],
        });
        const fiftyOneWithOneRepeat = [...tagList(50), 'tag7'];
        expect(errorsOf(ticketCreate, { subject: 's', tags: fiftyOneWithOneRepeat })).to.deep.equal([
          ['tags', 'invalid_length'],
        ]);
      });

      it('each tag holds 1 to 50 characters and is named by its index', () => {
        expect(decoded(ticketCreate, { subject: 's', tags: [chars(50)] })).to.deep.equal({
          subject: 's',
          tags: [chars(50)],
        });
        expect(errorsOf(ticketCreate, { subject: 's', tags: ['ok', '', chars(51), 5, '  '] })).to.deep.equal([
          ['tags.1', 'invalid_length'],
          ['tags.2', 'invalid_length'],
          ['tags.3', 'invalid_type'],
          ['tags.4', 'invalid_value'],
        ]);
      });

      it('must be an array', () => {
        expect(errorsOf(ticketCreate, { subject: 's', tags: 'a,b' })).to.deep.equal([['tags', 'invalid_type']]);
        expect(errorsOf(ticketCreate, { subject: 's', tags: { 0: 'a' } })).to.deep.equal([['tags', 'invalid_type']]);
      });
    });

    it('references are positive integer ids; assigned user and group may be null', () => {
      for (const [field, domain] of [
        ['customer_id', 'customerId'],
        ['assigned_user_id', 'assignedUserId'],
        ['group_id', 'groupId'],
      ] as const) {
        expect(decoded(ticketCreate, { subject: 's', [field]: 7 })).to.deep.equal({ subject: 's', [domain]: 7 });
        for (const bad of [0, -1, 1.5, '7', Number.MAX_SAFE_INTEGER + 1, true, {}]) {
          expect(
            errorsOf(ticketCreate, { subject: 's', [field]: bad }),
            `${field}=${JSON.stringify(bad)}`,
          ).to.deep.equal([[field, 'invalid_type']]);
        }
      }
    });

    it('outside a merge patch, null is no value for an optional field that has none', () => {
      expect(
        errorsOf(ticketCreate, { subject: 's', customer_id: null, priority: null, summary: null }),
      ).to.have.deep.members([
        ['customer_id', 'invalid_type'],
        ['priority', 'invalid_type'],
        ['summary', 'invalid_type'],
      ]);
    });

    describe('PUT', () => {
      it('takes a state, one of open, pending, closed', () => {
        expect(decoded(ticketReplace, { subject: 's', state: 'closed' })).to.deep.equal({
          subject: 's',
          state: 'closed',
        });
        expect(errorsOf(ticketReplace, { subject: 's', state: 'archived' })).to.deep.equal([
          ['state', 'invalid_value'],
        ]);
        expect(errorsOf(ticketReplace, { subject: 's', state: 'recently_closed' })).to.deep.equal([
          ['state', 'invalid_value'],
        ]);
      });
    });

    describe('PATCH (merge patch)', () => {
      it('accepts an empty patch', () => {
        expect(decoded(ticketPatch, {})).to.deep.equal({});
      });

      it('accepts null for fields with a default: summary, priority, tags, assigned user, group', () => {
        const body = { summary: null, priority: null, tags: null, assigned_user_id: null, group_id: null };
        expect(decoded(ticketPatch, body)).to.deep.equal({
          summary: null,
          priority: null,
          tags: null,
          assignedUserId: null,
          groupId: null,
        });
      });

      it('refuses null for the subject as required: a ticket cannot lose its subject', () => {
        expect(errorsOf(ticketPatch, { subject: null })).to.deep.equal([['subject', 'required']]);
      });

      it('refuses null for fields without a default as required: state, customer', () => {
        expect(errorsOf(ticketPatch, { state: null, customer_id: null })).to.have.deep.members([
          ['state', 'required'],
          ['customer_id', 'required'],
        ]);
      });

      it('still checks the values it is given', () => {
        expect(errorsOf(ticketPatch, { subject: '', state: 'archived', id: 1, colour: 'red' })).to.have.deep.members([
          ['subject', 'invalid_length'],
          ['state', 'invalid_value'],
          ['id', 'read_only'],
          ['colour', 'unknown_field'],
        ]);
      });
    });
  });
});
