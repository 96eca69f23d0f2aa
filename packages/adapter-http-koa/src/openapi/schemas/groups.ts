import { answerProperties, bodySchema } from '../../resources/field-table.js';
import { groupTable } from '../../resources/groups.js';
import type { Json } from '../json.js';

// A group as the API answers it (Group) and as it takes it (GroupWrite, GroupPatch): the
// properties are the group's field table's (resources/groups.ts).

export const groupSchemas = (): Record<string, Json> => {
  const properties = answerProperties(groupTable);
  return {
    Group: { type: 'object', additionalProperties: false, required: Object.keys(properties), properties },
    GroupWrite: bodySchema(groupTable, 'create', 'POST and PUT of a group; PUT resets an omitted description to "".'),
    GroupPatch: bodySchema(groupTable, 'patch'),
  };
};
