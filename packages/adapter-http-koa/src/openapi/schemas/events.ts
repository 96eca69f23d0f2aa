import { eventResources, eventTypes } from '@support/domain';
import { ref, type Json } from '../json.js';
import { timestamp, url } from './fields.js';

// One change of the feed (representations/event.ts), as GET /v1/events lists it and as
// webhooks receive it.

export const eventSchemas = (): Record<string, Json> => ({
  Event: {
    type: 'object',
    description:
      'One committed change of a ticket, message, user or group. The same object is the body of a webhook delivery.',
    additionalProperties: false,
    required: ['seq', 'type', 'occurred_at', 'resource', 'actor', 'data'],
    properties: {
      seq: {
        type: 'integer',
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        readOnly: true,
        description:
          'Its place in the feed: 1, 2, 3... in commit order, never reused and without gaps; read on with after=<the last seq you saw>.',
      },
      type: { type: 'string', enum: [...eventTypes], description: '<resource>.created, .updated or .deleted.' },
      occurred_at: timestamp('When the change was committed.'),
      resource: {
        type: 'object',
        description: 'The resource that changed (a message by its number inside its ticket).',
        additionalProperties: false,
        required: ['type', 'id', 'url'],
        properties: {
          type: { type: 'string', enum: [...eventResources] },
          id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
          url: url('The resource (a deleted one answers 404 or 410 there).'),
        },
      },
      actor: {
        description:
          'Who made the change: the user whose request made it, with the personal access token it was made with (token, absent for a login token); ' +
          'or the service itself (type system: start-up, maintenance). A change through a reference carries the actor of the request that caused it. ' +
          "GET /v1/events?actor_id=<user id> lists one user's changes.",
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'id', 'url'],
            properties: {
              type: { type: 'string', const: 'user' },
              id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
              url: url('The user (404 once deleted).'),
              token: {
                type: 'object',
                description: 'The personal access token the request was made with.',
                additionalProperties: false,
                required: ['id', 'name'],
                properties: {
                  id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
                  name: { type: 'string' },
                },
              },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type'],
            properties: { type: { type: 'string', const: 'system' } },
          },
        ],
      },
      data: {
        description:
          'The resource right after the change, as an admin reads it (never a password): a Ticket, Message, User or Group as its type says; null for *.deleted. ' +
          'A change through a reference (a customer renamed, a group deleted) has an event of its own for each ticket or user whose representation changed.',
        oneOf: [ref('Ticket'), ref('Message'), ref('User'), ref('Group'), ref('TicketField'), { type: 'null' }],
      },
    },
  },
});
