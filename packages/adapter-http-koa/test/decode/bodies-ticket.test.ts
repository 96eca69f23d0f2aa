import { expect } from 'chai';
import fc from 'fast-check';
import { fieldCodes, leftOf, rightOf } from '../support/decoding.js';
import { decoded, errorsOf, ticketCreate, ticketPatch, ticketReplace } from '../support/body-decoders.js';

describe('request body codecs', () => {
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
  });
});
