import { answerProperties, bodySchema } from '../../resources/field-table.js';
import { userTable } from '../../resources/users.js';
import type { Json } from '../json.js';
import { valueSchema } from '../value-schema.js';

// A user as the API answers it (User) and as it takes it (UserCreate, UserReplace, UserPatch):
// the properties are the user's field table's (resources/users.ts).

const passwordChange =
  'Changing your own password needs current_password. Any password change ends every session and personal token of that user, except the session that changed its own password.';

export const userSchemas = (): Record<string, Json> => {
  const properties = answerProperties(userTable);
  const password = userTable.password.write;
  return {
    User: {
      type: 'object',
      description: 'A user. password is write-only: it never appears in an answer.',
      additionalProperties: false,
      required: Object.keys(properties),
      properties: { ...properties, password: valueSchema(password.codec.shape, password.said) },
    },
    UserCreate: bodySchema(userTable, 'create'),
    UserReplace: bodySchema(
      userTable,
      'replace',
      `PUT: password may be omitted (it is kept); omitted role and group_ids return to their defaults. ${passwordChange}`,
    ),
    UserPatch: bodySchema(
      userTable,
      'patch',
      `PATCH (JSON merge patch). A customer may change their own name and password only. ${passwordChange}`,
    ),
  };
};
