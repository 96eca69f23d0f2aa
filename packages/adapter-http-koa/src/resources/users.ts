import { limits, userValues, type UserSnapshot } from '@support/domain';
import { ref } from '../openapi/json.js';
import { id, timestamp as timestampSchema, url } from '../openapi/schemas/fields.js';
import { link, timestamp } from '../representations/common.js';
import type { Urls } from '../representations/urls.js';
import { answered, namesOf, shownNames, writable, writeOnly, type FieldTable } from './field-table.js';

// A user's fields, described once (resources/field-table.ts). The password is written, never
// answered (only its argon2id hash is kept); the groups are answered as links and written as
// group_ids.

/** What a user's representation is made from. */
export interface UserSource {
  readonly user: UserSnapshot;
  readonly urls: Urls;
}

const { name, email, password, currentPassword, role, groupIds } = userValues;

export const userTable = {
  id: answered((s: UserSource) => s.user.id, id('Server-assigned, never reused.')),
  url: answered((s: UserSource) => s.urls.user(s.user.id), url('This user.')),
  name: writable((s: UserSource) => s.user.name, {
    domain: 'name',
    codec: name,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: { description: `The user's name: ${limits.name.min}-${limits.name.max} characters, not blank.` },
  }),
  email: writable((s: UserSource) => s.user.email, {
    domain: 'email',
    codec: email,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: { description: 'Unique among users, compared without regard to case.' },
  }),
  password: writeOnly({
    domain: 'password',
    codec: password,
    create: 'required',
    replace: 'optional',
    resettable: false,
    said: {
      secret: true,
      description: `${limits.password.min}-${limits.password.max} characters. Stored as an argon2id hash; never returned, never logged.`,
    },
  }),
  current_password: writeOnly({
    domain: 'currentPassword',
    codec: currentPassword,
    create: 'refused',
    replace: 'optional',
    resettable: false,
    said: {
      secret: true,
      description:
        "Required when you change your own password (422 when missing; 403 40304 when wrong, counted as a failed login: 10 failures in 15 minutes lock the account's logins, 429). Not needed for an admin setting another user's password.",
    },
  }),
  role: writable((s: UserSource) => s.user.role, {
    domain: 'role',
    codec: role,
    create: 'optional',
    replace: 'optional',
    resettable: false,
    said: {
      description:
        'customer: own tickets only; agent: every ticket, reads users and groups; admin: everything. Default customer.',
    },
  }),
  groups: answered((s: UserSource) => s.user.groupIds.map((g) => link(g, s.urls.group(g))), {
    type: 'array',
    items: ref('Link'),
    readOnly: true,
    description: 'Links to the groups of this user (write them as group_ids).',
  }),
  group_ids: writeOnly({
    domain: 'groupIds',
    codec: groupIds,
    create: 'optional',
    replace: 'optional',
    resettable: true,
    said: { description: "The user's groups. Default [].", items: 'The id of a group.' },
  }),
  created_at: answered((s: UserSource) => timestamp(s.user.createdAt), timestampSchema('When the user was created.')),
  updated_at: answered((s: UserSource) => timestamp(s.user.updatedAt), timestampSchema('When the user last changed.')),
} satisfies FieldTable<UserSource>;

export const userNames = namesOf(userTable);
/** The fields of a user's representation, in order (`embed` may ask for them). */
export const userFields = shownNames<UserSource, typeof userTable>(userTable);
