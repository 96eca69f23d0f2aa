import { limits, type BodyProperties, type MessageCreateInput, type MessagePatchInput } from '../body-codecs.js';
import { ref, type Json } from '../json.js';
import { id, nullable, text, timestamp, url } from './fields.js';

// A message of a ticket as the API answers it (Message) and as it takes it (MessageWrite,
// MessagePatch).

const messageBody = text(
  limits.body.min,
  limits.body.max,
  `The message text: ${limits.body.min}-${limits.body.max} characters, not blank.`,
);
const internal = {
  type: 'boolean',
  description: 'An internal note: seen by agents and admins only (to a customer it does not exist). Default false.',
};

export const messageSchemas = (): Record<string, Json> => ({
  Message: {
    type: 'object',
    description: 'A message of a ticket. Its id is its number inside the ticket (1, 2, 3...).',
    additionalProperties: false,
    required: ['id', 'url', 'body', 'author', 'internal', 'ticket', 'created_at', 'updated_at'],
    properties: {
      id: id('The number of the message inside its ticket.'),
      url: url('This message.'),
      body: messageBody,
      author: { ...ref('Link'), readOnly: true, description: 'The user who wrote it (the caller at creation).' },
      internal,
      ticket: { ...ref('Link'), readOnly: true, description: 'The ticket it belongs to.' },
      created_at: timestamp('When the message was added.'),
      updated_at: timestamp('When the message last changed.'),
    },
  },
  MessageWrite: {
    type: 'object',
    description: 'POST and PUT of a message. PUT resets an omitted internal to false.',
    additionalProperties: false,
    required: ['body'],
    properties: { body: messageBody, internal } satisfies BodyProperties<MessageCreateInput>,
  },
  MessagePatch: {
    type: 'object',
    description: 'PATCH of a message (JSON merge patch); null resets internal to false.',
    additionalProperties: false,
    properties: { body: messageBody, internal: nullable(internal) } satisfies BodyProperties<MessagePatchInput>,
  },
});
