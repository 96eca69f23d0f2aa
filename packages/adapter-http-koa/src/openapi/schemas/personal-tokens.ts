import { personalTokenLimits, scopes } from '@support/domain';
import type { PersonalTokenWireTable } from '../../wire-names.js';
import type { BodyProperties, PersonalTokenCreateInput } from '../body-codecs.js';
import type { Json } from '../json.js';
import { id, nullable, text, timestamp, url } from './fields.js';

// Personal access tokens (routes/tokens.ts, representations/personal-token.ts).

const scopeList: Json = {
  type: 'array',
  minItems: 1,
  maxItems: scopes.length,
  uniqueItems: true,
  items: { type: 'string', enum: [...scopes] },
  description:
    "What the token may do, on top of its user's role (a scope never widens a role); X:write includes X:read. Each must be covered by the scopes of the login token making it and usable by the role (else 422 not_permitted).",
};

const tokenProperties: Record<string, Json> = {
  id: id('Server-assigned, never reused.'),
  url: url('This token (under its user).'),
  name: text(personalTokenLimits.name.min, personalTokenLimits.name.max, 'What the token is for.'),
  scopes: scopeList,
  created_at: timestamp('When the token was made.'),
  expires_at: timestamp('From then on the token is refused (401).'),
  last_used_at: {
    ...nullable(
      timestamp('The last request made with it, to the minute (written at most once a minute); null when never used.'),
    ),
    readOnly: true,
  },
};

export const personalTokenSchemas = (): Record<string, Json> => ({
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
  PersonalTokenCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'scopes'],
    properties: {
      name: text(
        personalTokenLimits.name.min,
        personalTokenLimits.name.max,
        `${String(personalTokenLimits.name.min)}-${String(personalTokenLimits.name.max)} characters, not blank.`,
      ),
      scopes: scopeList,
      expires_at: {
        type: 'string',
        format: 'date-time',
        description: `RFC 3339; in the future and at most ${String(personalTokenLimits.maxDays)} days ahead. Default: ${String(personalTokenLimits.defaultDays)} days from now.`,
      },
    } satisfies BodyProperties<PersonalTokenCreateInput, PersonalTokenWireTable>,
  },
});
