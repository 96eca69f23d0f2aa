import { roles } from '@support/domain';
import { userFields } from '../../representations/fields.js';
import {
  limits,
  type BodyProperties,
  type UserCreateInput,
  type UserPatchInput,
  type UserReplaceInput,
} from '../body-codecs.js';
import type { UserWireTable } from '../../wire-names.js';
import { ref, type Json } from '../json.js';
import { id, idRef, nullable, text, timestamp, url } from './fields.js';

// A user as the API answers it (User) and as it takes it (UserCreate, UserReplace, UserPatch).

const userName = text(limits.name.min, limits.name.max, `${limits.name.min}-${limits.name.max} characters, not blank.`);
const email = {
  type: 'string',
  format: 'email',
  maxLength: 254,
  description: 'Unique among users, compared without regard to case.',
};
const role = {
  type: 'string',
  enum: [...roles],
  description:
    'customer: own tickets only; agent: every ticket, reads users and groups; admin: everything. Default customer.',
};
const password = {
  type: 'string',
  format: 'password',
  minLength: limits.password.min,
  maxLength: limits.password.max,
  writeOnly: true,
  description: `${limits.password.min}-${limits.password.max} characters. Stored as an argon2id hash; never returned, never logged.`,
};
const currentPassword = {
  type: 'string',
  format: 'password',
  minLength: 1,
  maxLength: limits.password.max,
  writeOnly: true,
  description:
    "Required when you change your own password (422 when missing; 403 40304 when wrong, counted as a failed login: 10 failures in 15 minutes lock the account's logins, 429). Not needed for an admin setting another user's password.",
};
const groupIds = {
  type: 'array',
  items: idRef('group'),
  maxItems: limits.groupIds,
  uniqueItems: true,
  description: "The user's groups. Default [].",
};

export const userProperties: Record<(typeof userFields)[number], Json> = {
  id: id('Server-assigned, never reused.'),
  url: url('This user.'),
  name: { ...userName, description: "The user's name." },
  email,
  role,
  groups: {
    type: 'array',
    items: ref('Link'),
    readOnly: true,
    description: 'Links to the groups of this user (write them as group_ids).',
  },
  created_at: timestamp('When the user was created.'),
  updated_at: timestamp('When the user last changed.'),
};

export const userSchemas = (): Record<string, Json> => ({
  User: {
    type: 'object',
    description: 'A user. password is write-only: it never appears in an answer.',
    additionalProperties: false,
    required: [...userFields],
    properties: { ...userProperties, password },
  },
  UserCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'email', 'password'],
    properties: { name: userName, email, password, role, group_ids: groupIds } satisfies BodyProperties<
      UserCreateInput,
      UserWireTable
    >,
  },
  UserReplace: {
    type: 'object',
    description:
      'PUT: password may be omitted (it is kept); omitted role and group_ids return to their defaults. Changing your own password needs current_password. Any password change ends every session and personal token of that user, except the session that changed its own password.',
    additionalProperties: false,
    required: ['name', 'email'],
    properties: {
      name: userName,
      email,
      password,
      current_password: currentPassword,
      role,
      group_ids: groupIds,
    } satisfies BodyProperties<UserReplaceInput, UserWireTable>,
  },
  UserPatch: {
    type: 'object',
    description:
      'PATCH (JSON merge patch). A customer may change their own name and password only. Changing your own password needs current_password. Any password change ends every session and personal token of that user, except the session that changed its own password.',
    additionalProperties: false,
    properties: {
      name: userName,
      email,
      password,
      current_password: currentPassword,
      role,
      group_ids: nullable(groupIds),
    } satisfies BodyProperties<UserPatchInput, UserWireTable>,
  },
});
