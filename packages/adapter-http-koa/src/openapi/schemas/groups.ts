import { groupFields } from '../../representations/fields.js';
import { limits, type BodyProperties, type GroupCreateInput, type GroupPatchInput } from '../body-codecs.js';
import type { Json } from '../json.js';
import { id, nullable, text, timestamp, url } from './fields.js';

// A group as the API answers it (Group) and as it takes it (GroupWrite, GroupPatch).

const groupName = text(
  limits.groupName.min,
  limits.groupName.max,
  `Unique among groups; ${limits.groupName.min}-${limits.groupName.max} characters, not blank.`,
);
const groupDescription = text(
  limits.description.min,
  limits.description.max,
  `At most ${limits.description.max} characters. Default "".`,
);

export const groupProperties: Record<(typeof groupFields)[number], Json> = {
  id: id('Server-assigned, never reused.'),
  url: url('This group.'),
  name: groupName,
  description: groupDescription,
  users_url: url('The members of this group: GET it for the list of users.'),
  created_at: timestamp('When the group was created.'),
  updated_at: timestamp('When the group last changed.'),
};

export const groupSchemas = (): Record<string, Json> => ({
  Group: {
    type: 'object',
    additionalProperties: false,
    required: [...groupFields],
    properties: groupProperties,
  },
  GroupWrite: {
    type: 'object',
    description: 'POST and PUT of a group; PUT resets an omitted description to "".',
    additionalProperties: false,
    required: ['name'],
    properties: { name: groupName, description: groupDescription } satisfies BodyProperties<GroupCreateInput>,
  },
  GroupPatch: {
    type: 'object',
    additionalProperties: false,
    properties: { name: groupName, description: nullable(groupDescription) } satisfies BodyProperties<GroupPatchInput>,
  },
});
