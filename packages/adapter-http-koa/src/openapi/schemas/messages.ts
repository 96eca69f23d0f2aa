import { answerProperties, bodySchema } from '../../resources/field-table.js';
import { messageTable } from '../../resources/messages.js';
import type { Json } from '../json.js';

// A message of a ticket as the API answers it (Message) and as it takes it (MessageWrite,
// MessagePatch): the properties are the message's field table's (resources/messages.ts).

export const messageSchemas = (): Record<string, Json> => {
  const properties = answerProperties(messageTable);
  return {
    Message: {
      type: 'object',
      description: 'A message of a ticket. Its id is its number inside the ticket (1, 2, 3...).',
      additionalProperties: false,
      required: Object.keys(properties),
      properties,
    },
    MessageCreate: bodySchema(
      messageTable,
      'create',
      'POST of a message: its text, and the uploads it takes (POST /v1/uploads first).',
    ),
    MessageWrite: bodySchema(
      messageTable,
      'replace',
      'PUT of a message. An omitted internal returns to false; its attachments stay.',
    ),
    MessagePatch: bodySchema(
      messageTable,
      'patch',
      'PATCH of a message (JSON merge patch); null resets internal to false.',
    ),
  };
};
