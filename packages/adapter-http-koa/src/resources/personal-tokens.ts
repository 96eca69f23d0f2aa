import type { PersonalTokenRecord } from '@support/application';
import { personalTokenLimits, personalTokenValues } from '@support/domain';
import { nullable, timestamp as timestampSchema, id, url } from '../openapi/schemas/fields.js';
import { timestamp } from '../representations/common.js';
import type { Urls } from '../representations/urls.js';
import { answered, namesOf, writable, type FieldTable } from './field-table.js';

// A personal access token's fields (contract §8.1), described once (resources/field-table.ts).
// Its secret is no field of it: the answer that made it adds `token`, and no body writes it. A
// token is made and deleted, never changed: only a creation takes fields.

/** What a token's representation is made from. */
export interface PersonalTokenSource {
  readonly record: PersonalTokenRecord;
  readonly urls: Urls;
}

const { min, max } = personalTokenLimits.name;

export const personalTokenTable = {
  id: answered((s: PersonalTokenSource) => s.record.id, id('Server-assigned, never reused.')),
  url: answered(
    (s: PersonalTokenSource) => s.urls.personalToken(s.record.userId, s.record.id),
    url('This token (under its user).'),
  ),
  name: writable((s: PersonalTokenSource) => s.record.name, {
    domain: 'name',
    codec: personalTokenValues.name,
    create: 'required',
    replace: 'refused',
    patch: 'refused',
    resettable: false,
    said: { description: 'What the token is for.' },
    saidOnCreate: { description: `${String(min)}-${String(max)} characters, not blank.` },
  }),
  scopes: writable((s: PersonalTokenSource) => [...s.record.scopes], {
    domain: 'scopes',
    codec: personalTokenValues.scopes,
    create: 'required',
    replace: 'refused',
    patch: 'refused',
    resettable: false,
    said: {
      description:
        "What the token may do, on top of its user's role (a scope never widens a role); X:write includes X:read. Each must be covered by the scopes of the login token making it and usable by the role (else 422 not_permitted).",
    },
  }),
  created_at: answered(
    (s: PersonalTokenSource) => timestamp(s.record.createdAt),
    timestampSchema('When the token was made.'),
  ),
  expires_at: writable((s: PersonalTokenSource) => timestamp(s.record.expiresAt), {
    domain: 'expiresAt',
    codec: personalTokenValues.expiresAt,
    create: 'optional',
    replace: 'refused',
    patch: 'refused',
    resettable: false,
    said: { description: 'From then on the token is refused (401). ISO 8601 in UTC with milliseconds.' },
    saidOnCreate: {
      description: `RFC 3339; in the future and at most ${String(personalTokenLimits.maxDays)} days ahead. Default: ${String(personalTokenLimits.defaultDays)} days from now.`,
    },
  }),
  last_used_at: answered(
    (s: PersonalTokenSource) => (s.record.lastUsedAt === null ? null : timestamp(s.record.lastUsedAt)),
    {
      ...nullable(
        timestampSchema(
          'The last request made with it, to the minute (written at most once a minute); null when never used.',
        ),
      ),
      readOnly: true,
    },
  ),
} satisfies FieldTable<PersonalTokenSource>;

export const personalTokenNames = namesOf(personalTokenTable);
/** The secret, shown by the answer that made the token only: refused in every body. */
export const personalTokenSecretFields = ['token'] as const;
