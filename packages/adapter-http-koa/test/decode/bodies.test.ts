import { expect } from 'chai';
import { TicketCreateBody } from '../../src/decode/bodies.js';
import { decodeBody } from '../../src/decode/object-codec.js';
import { leftOf } from '../support/decoding.js';
import {
  allBodies,
  chars,
  decoded,
  errorsOf,
  groupCreate,
  groupPatch,
  groupReplace,
  messageCreate,
  messagePatch,
  messageReplace,
  messagesOf,
  ticketCreate,
  userCreate,
  userPatch,
  userReplace,
  type Decode,
} from '../support/body-decoders.js';

describe('request body codecs', () => {
  describe('every body', () => {
    for (const [name, codec] of allBodies) {
      it(`${name} refuses a body that is not a JSON object`, () => {
        for (const body of [[], [{ subject: 's' }], 'subject', null, 42, true, undefined]) {
          expect(errorsOf(codec, body), JSON.stringify(body)).to.deep.equal([['', 'invalid_type']]);
        }
      });

      it(`${name} names an unknown field`, () => {
        expect(errorsOf(codec, { colour: 'red' })).to.deep.include(['colour', 'unknown_field']);
      });

      it(`${name} calls the server-set fields read-only`, () => {
        for (const field of ['id', 'url', 'created_at', 'updated_at']) {
          expect(errorsOf(codec, { [field]: 1 })).to.deep.include([field, 'read_only']);
        }
      });
    }
  });

  describe('every text field', () => {
    // JSON can carry a lone surrogate; BSON would store U+FFFD instead, so no store could give it back.
    const texts: Array<[string, Decode, Record<string, unknown>, string]> = [
      ['subject', ticketCreate, {}, 'subject'],
      ['summary', ticketCreate, { subject: 's' }, 'summary'],
      ['message body', messageCreate, {}, 'body'],
      ['user name', userCreate, { email: 'a@b.co', password: 'long enough' }, 'name'],
      ['password', userCreate, { name: 'Ada', email: 'a@b.co' }, 'password'],
      ['group name', groupCreate, {}, 'name'],
      ['group description', groupCreate, { name: 'Ops' }, 'description'],
    ];
    for (const [what, codec, rest, field] of texts) {
      it(`${what}: a lone UTF-16 surrogate is an invalid value; a pair (an emoji) is text`, () => {
        for (const lone of ['\uD800', 'abc\uDBFF', '\uDC00 x y z 1', '😀\uD83D']) {
          expect(errorsOf(codec, { ...rest, [field]: `${lone} pad to 8` }), JSON.stringify(lone)).to.deep.equal([
            [field, 'invalid_value'],
          ]);
        }
        expect(decoded(codec, { ...rest, [field]: '😀 Zoë pad to 8' })).to.deep.include({ [field]: '😀 Zoë pad to 8' });
      });
    }
    it('a tag: a lone surrogate is an invalid value, named by its place in the list', () => {
      expect(errorsOf(ticketCreate, { subject: 's', tags: ['ok', 'x\uDFFF'] })).to.deep.equal([
        ['tags.1', 'invalid_value'],
      ]);
    });
  });

  it('a refused body names the fields of the resource it gave, refused or not, by their domain names (null when it is not an object)', () => {
    expect(
      leftOf(decodeBody(TicketCreateBody, { subject: '', customer_id: 'x', colour: 'red', customerId: 1 })).given,
    ).to.deep.equal(['subject', 'customerId']);
    expect(leftOf(decodeBody(TicketCreateBody, { subject: '' })).given).to.deep.equal(['subject']);
    expect(leftOf(decodeBody(TicketCreateBody, [{ subject: 's' }])).given).to.equal(null);
  });

  describe('message', () => {
    it('accepts a body, and an internal flag', () => {
      expect(decoded(messageCreate, { body: 'hi' })).to.deep.equal({ body: 'hi' });
      expect(decoded(messageCreate, { body: 'hi', internal: true })).to.deep.equal({ body: 'hi', internal: true });
    });

    it('body is required and holds 1 to 50000 characters, not blank', () => {
      for (const codec of [messageCreate, messageReplace]) {
        expect(errorsOf(codec, {})).to.deep.equal([['body', 'required']]);
        expect(errorsOf(codec, { body: null })).to.deep.equal([['body', 'required']]);
        expect(errorsOf(codec, { body: '' })).to.deep.equal([['body', 'invalid_length']]);
        expect(errorsOf(codec, { body: '  ' })).to.deep.equal([['body', 'invalid_value']]);
        expect(decoded(codec, { body: chars(50000) })).to.deep.equal({ body: chars(50000) });
        expect(errorsOf(codec, { body: chars(50001) })).to.deep.equal([['body', 'invalid_length']]);
      }
    });

    it('internal is a boolean', () => {
      expect(errorsOf(messageCreate, { body: 'hi', internal: 'yes' })).to.deep.equal([['internal', 'invalid_type']]);
      expect(errorsOf(messageCreate, { body: 'hi', internal: 1 })).to.deep.equal([['internal', 'invalid_type']]);
    });

    it('author and ticket are server-set', () => {
      expect(errorsOf(messageCreate, { body: 'hi', author: 3, ticket: 1 })).to.have.deep.members([
        ['author', 'read_only'],
        ['ticket', 'read_only'],
      ]);
    });

    it('attachment_ids only when a message is added: a PUT or PATCH naming it is told why (contract §9)', () => {
      for (const decode of [messageReplace, messagePatch]) {
        const body = { body: 'hi', attachment_ids: [1] };
        expect(errorsOf(decode, body)).to.deep.equal([['attachment_ids', 'unknown_field']]);
        expect(messagesOf(decode, body)).to.deep.equal([
          'is taken only when a message is added (POST); a message keeps its attachments, and DELETE /v1/attachments/{id} removes one',
        ]);
      }
      // Another unknown name is still just unknown, an inherited one (constructor) too.
      expect(messagesOf(messageReplace, { body: 'hi', constructor: 1 })).to.deep.equal(['is not a field of message']);
    });

    it('PATCH: internal null returns to the default, body null is required', () => {
      expect(decoded(messagePatch, { internal: null })).to.deep.equal({ internal: null });
      expect(decoded(messagePatch, {})).to.deep.equal({});
      expect(errorsOf(messagePatch, { body: null })).to.deep.equal([['body', 'required']]);
    });
  });

  describe('user', () => {
    const alice = { name: 'Alice Liddell', email: 'alice@example.com', password: 'correct horse' };

    it('accepts name, e-mail and password, with optional role and groups', () => {
      expect(decoded(userCreate, alice)).to.deep.equal(alice);
      expect(decoded(userCreate, { ...alice, role: 'agent', group_ids: [2, 1, 2] })).to.deep.equal({
        ...alice,
        role: 'agent',
        groupIds: [2, 1],
      });
    });

    it('reports every missing field at once', () => {
      expect(errorsOf(userCreate, {})).to.have.deep.members([
        ['name', 'required'],
        ['email', 'required'],
        ['password', 'required'],
      ]);
    });

    it('password holds 8 to 256 characters', () => {
      expect(decoded(userCreate, { ...alice, password: chars(8) })).to.deep.include({ password: chars(8) });
      expect(decoded(userCreate, { ...alice, password: chars(256) })).to.deep.include({ password: chars(256) });
      expect(errorsOf(userCreate, { ...alice, password: chars(7) })).to.deep.equal([['password', 'invalid_length']]);
      expect(errorsOf(userCreate, { ...alice, password: chars(257) })).to.deep.equal([['password', 'invalid_length']]);
    });

    it('e-mail must look like an address; role must be known; groups are ids', () => {
      expect(
        errorsOf(userCreate, { ...alice, email: 'alice@', role: 'root', group_ids: [1, 0], groups: [] }),
      ).to.have.deep.members([
        ['email', 'invalid_value'],
        ['role', 'invalid_value'],
        ['group_ids.1', 'invalid_type'],
        ['groups', 'read_only'],
      ]);
      expect(errorsOf(userCreate, { ...alice, email: 42 })).to.deep.equal([['email', 'invalid_type']]);
    });

    it('PUT may omit the password', () => {
      expect(decoded(userReplace, { name: 'Alice', email: 'alice@example.com' })).to.deep.equal({
        name: 'Alice',
        email: 'alice@example.com',
      });
      expect(errorsOf(userReplace, { password: 'long enough' })).to.have.deep.members([
        ['name', 'required'],
        ['email', 'required'],
      ]);
    });

    it('PATCH: group_ids null empties the list; name, e-mail, password, role null are required', () => {
      expect(decoded(userPatch, { group_ids: null })).to.deep.equal({ groupIds: null });
      expect(errorsOf(userPatch, { name: null, email: null, password: null, role: null })).to.have.deep.members([
        ['name', 'required'],
        ['email', 'required'],
        ['password', 'required'],
        ['role', 'required'],
      ]);
    });
  });

  describe('group', () => {
    it('accepts a name and a description', () => {
      expect(decoded(groupCreate, { name: 'Hardware', description: 'Printers' })).to.deep.equal({
        name: 'Hardware',
        description: 'Printers',
      });
    });

    it('name is required, 1 to 100 characters; description at most 1000', () => {
      expect(errorsOf(groupCreate, { description: chars(1001) })).to.have.deep.members([
        ['name', 'required'],
        ['description', 'invalid_length'],
      ]);
      expect(errorsOf(groupReplace, { name: chars(101) })).to.deep.equal([['name', 'invalid_length']]);
      expect(decoded(groupReplace, { name: chars(100), description: chars(1000) })).to.deep.equal({
        name: chars(100),
        description: chars(1000),
      });
    });

    it('users_url is server-set', () => {
      expect(errorsOf(groupCreate, { name: 'x', users_url: 'u' })).to.deep.equal([['users_url', 'read_only']]);
    });

    it('PATCH: description null returns to the default, name null is required', () => {
      expect(decoded(groupPatch, { description: null })).to.deep.equal({ description: null });
      expect(errorsOf(groupPatch, { name: null })).to.deep.equal([['name', 'required']]);
    });
  });
});
