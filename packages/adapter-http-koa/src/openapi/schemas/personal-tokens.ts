import { answerProperties, bodySchema } from '../../resources/field-table.js';
import { personalTokenTable } from '../../resources/personal-tokens.js';
import type { Json } from '../json.js';

// Personal access tokens (routes/tokens.ts, representations/personal-token.ts).

export const personalTokenSchemas = (): Record<string, Json> => {
  const tokenProperties = answerProperties(personalTokenTable);
  return {
    PersonalToken: {
      type: 'object',
      description: 'A personal access token, without its secret.',
      additionalProperties: false,
      required: Object.keys(tokenProperties),
      properties: tokenProperties,
    },
    PersonalTokenCreated: {
      type: 'object',
      description: 'A new personal access token with its secret (token): shown in this answer only, never again.',
      additionalProperties: false,
      required: [...Object.keys(tokenProperties), 'token'],
      properties: {
        ...tokenProperties,
        token: {
          type: 'string',
          pattern: '^stp_[0-9A-Za-z]{46}$',
          description:
            'stp_ + 40 random base62 characters + 6 base62 characters of their CRC32 (a mistyped token is refused without a lookup). Send it as any access token.',
          readOnly: true,
        },
      },
    },
    PersonalTokenCreate: bodySchema(personalTokenTable, 'create'),
  };
};
