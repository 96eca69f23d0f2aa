import { expect } from 'chai';
import fc from 'fast-check';
import type { RefusedBody } from '@support/application';
import type { FieldError } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import {
  GroupCreateBody,
  GroupPatchBody,
  GroupReplaceBody,
  MessageCreateBody,
  MessagePatchBody,
  MessageReplaceBody,
  TicketCreateBody,
  TicketPatchBody,
  TicketReplaceBody,
  UserCreateBody,
  UserPatchBody,
  UserReplaceBody,
} from '../../src/decode/bodies.js';
import { decodeBody, type BodyCodec } from '../../src/decode/object-codec.js';
import { wireField } from '../../src/wire-names.js';
import { fieldCodes, leftOf, rightOf } from '../support/decoding.js';

/** A codec run through decodeBody, its decoded type forgotten, so that different bodies fit one list; errors name the API's fields. */
type Decode = (body: unknown) => E.Either<readonly FieldError[], unknown>;
const decoder =
  <A>(codec: BodyCodec<A>): Decode =>
  (body) =>
    E.mapLeft((r: RefusedBody) => r.errors.map((f) => ({ ...f, field: wireField(codec.names, f) })))(
      decodeBody(codec, body),
    );

const ticketCreate = decoder(TicketCreateBody);
const ticketReplace = decoder(TicketReplaceBody);
const ticketPatch = decoder(TicketPatchBody);
const messageCreate = decoder(MessageCreateBody);
const messageReplace = decoder(MessageReplaceBody);
const messagePatch = decoder(MessagePatchBody);
const userCreate = decoder(UserCreateBody);
const userReplace = decoder(UserReplaceBody);
const userPatch = decoder(UserPatchBody);
const groupCreate = decoder(GroupCreateBody);
const groupReplace = decoder(GroupReplaceBody);
const groupPatch = decoder(GroupPatchBody);

/** The [field, code] pairs of a refused body; fails the test if the body was accepted. */
const errorsOf = (decode: Decode, body: unknown): Array<[string, string]> => fieldCodes(leftOf(decode(body)));
const messagesOf = (decode: Decode, body: unknown): string[] => leftOf(decode(body)).map((e) => e.message);
const decoded = (decode: Decode, body: unknown): unknown => rightOf(decode(body));

const chars = (n: number, c = 'a'): string => c.repeat(n);
const emoji = (n: number): string => '😀'.repeat(n);
const tagList = (n: number): string[] => Array.from({ length: n }, (_, i) => `tag${i}`);

const allBodies: ReadonlyArray<[string, Decode]> = [
  ['TicketCreateBody', ticketCreate],
  ['TicketReplaceBody', ticketReplace],
  ['TicketPatchBody', ticketPatch],
  ['MessageCreateBody', messageCreate],
  ['MessageReplaceBody', messageReplace],
  ['MessagePatchBody', messagePatch],
  ['UserCreateBody', userCreate],
  ['UserReplaceBody', userReplace],
  ['UserPatchBody', userPatch],
  ['GroupCreateBody', groupCreate],
  ['GroupReplaceBody', groupReplace],
  ['GroupPatchBody', groupPatch],
];

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

  describe('ticket', () => {
    it('accepts a minimal ticket: a subject', () => {
      expect(decoded(ticketCreate, { subject: 'Printer on fire' })).to.deep.equal({ subject: 'Printer on fire' });
    });

    it('accepts every writable field', () => {
      const body = {
        subject: 'Printer on fire',
        summary: 'Smoke everywhere',
        priority: 'urgent',
        customer_id: 2,
        assigned_user_id: 3,
        group_id: 4,
        tags: ['hardware', 'fire'],
      };
      expect(decoded(ticketCreate, body), 'under the domain names').to.deep.equal({
        subject: 'Printer on fire',
        summary: 'Smoke everywhere',
        priority: 'urgent',
        customerId: 2,
        assignedUserId: 3,
        groupId: 4,
        tags: ['hardware', 'fire'],
      });
      expect(decoded(ticketCreate, { subject: 's', assigned_user_id: null, group_id: null })).to.deep.equal({
        subject: 's',
        assignedUserId: null,
        groupId: null,
      });
    });

    it("takes the API's names only: a domain name in the body is an unknown field", () => {
      expect(errorsOf(ticketCreate, { subject: 's', customerId: 2, assignedUserId: 3, groupId: 4 })).to.deep.equal([
        ['customerId', 'unknown_field'],
        ['assignedUserId', 'unknown_field'],
        ['groupId', 'unknown_field'],
      ]);
    });

    it('reports every problem of a body at once, each with its field and code', () => {
      expect(
        errorsOf(ticketCreate, {
          summary: 5,
          priority: 'critical',
          tags: 'hardware',
          customer_id: 0,
          id: 3,
          url: 'https://example.com/v1/tickets/3',
          created_at: '2024-01-01T00:00:00.000Z',
          customer_name: 'Alice',
          state: 'open',
          colour: 'red',
        }),
      ).to.have.deep.members([
        ['subject', 'required'],
        ['summary', 'invalid_type'],
        ['priority', 'invalid_value'],
        ['tags', 'invalid_type'],
        ['customer_id', 'invalid_type'],
        ['id', 'read_only'],
        ['url', 'read_only'],
        ['created_at', 'read_only'],
        ['customer_name', 'read_only'],
        ['state', 'read_only'],
        ['colour', 'unknown_field'],
      ]);
    });

    it('calls every server-set ticket field read-only', () => {
      const serverSet = [
        'id',
        'url',
        'created_at',
        'updated_at',
        'closed_at',
        'customer',
        'customer_name',
        'assigned_user',
        'group',
        'messages_url',
      ];
      for (const codec of [ticketCreate, ticketReplace, ticketPatch]) {
        const body: Record<string, unknown> = { subject: 's' };
        for (const f of serverSet) body[f] = null;
        expect(errorsOf(codec, body)).to.have.deep.members(serverSet.map((f) => [f, 'read_only']));
      }
    });

    it('refuses state on creation as read-only: new tickets start open', () => {
      expect(errorsOf(ticketCreate, { subject: 's', state: 'closed' })).to.deep.equal([['state', 'read_only']]);
    });

    it('property: any combination of problems is reported exactly, all at once', () => {
      const problems: ReadonlyArray<readonly [string, unknown, string]> = [
        ['summary', ['not', 'text'], 'invalid_type'],
        ['priority', 'critical', 'invalid_value'],
        ['tags', [''], 'invalid_length'],
        ['customer_id', -1, 'invalid_type'],
        ['assigned_user_id', 1.5, 'invalid_type'],
        ['group_id', '7', 'invalid_type'],
        ['id', 1, 'read_only'],
        ['closed_at', null, 'read_only'],
        ['customer_name', 'Alice', 'read_only'],
        ['state', 'open', 'read_only'],
        ['colour', 'red', 'unknown_field'],
        ['Subject', 'wrong case', 'unknown_field'],
      ];
      const subjects: ReadonlyArray<readonly [unknown, string | null]> = [
        ['fine', null],
        ['', 'invalid_length'],
        ['   ', 'invalid_value'],
        [null, 'required'],
        [undefined, 'required'],
        [7, 'invalid_type'],
      ];
      fc.assert(
        fc.property(fc.subarray([...problems]), fc.constantFrom(...subjects), (chosen, [subject, subjectCode]) => {
          const body: Record<string, unknown> = Object.fromEntries(chosen.map(([f, v]) => [f, v]));
          if (subject !== undefined) body.subject = subject;
          const expected = chosen.map(([f, , code]) => [f === 'tags' ? 'tags.0' : f, code]);
          if (subjectCode !== null) expected.push(['subject', subjectCode]);
          const result = ticketCreate(body);
          if (expected.length === 0) expect(rightOf(result)).to.deep.equal(body);
          else expect(fieldCodes(leftOf(result))).to.have.deep.members(expected);
        }),
        { numRuns: 300 },
      );
    });

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

      it('drops duplicates, keeping the first of each, before counting', () => {
        expect(decoded(ticketCreate, { subject: 's', tags: ['b', 'a', 'b', 'c', 'a'] })).to.deep.equal({
          subject: 's',
          tags: ['b', 'a', 'c'],
        });
        const fiftyOneWithOneRepeat = [...tagList(50), 'tag7'];
        expect(decoded(ticketCreate, { subject: 's', tags: fiftyOneWithOneRepeat })).to.deep.equal({
          subject: 's',
          tags: tagList(50),
        });
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
