import { groupValues, limits, type Group } from '@support/domain';
import { id, timestamp as timestampSchema, url } from '../openapi/schemas/fields.js';
import { timestamp } from '../representations/common.js';
import type { Urls } from '../representations/urls.js';
import { answered, shownNames, writable, type FieldTable } from './field-table.js';

// A group's fields, described once (resources/field-table.ts). Its members are a list of their
// own (users_url); a user's group_ids write them.

/** What a group's representation is made from. */
export interface GroupSource {
  readonly group: Group;
  readonly urls: Urls;
}

export const groupTable = {
  id: answered((s: GroupSource) => s.group.id, id('Server-assigned, never reused.')),
  url: answered((s: GroupSource) => s.urls.group(s.group.id), url('This group.')),
  name: writable((s: GroupSource) => s.group.name, {
    domain: 'name',
    codec: groupValues.name,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: {
      description: `Unique among groups; ${limits.groupName.min}-${limits.groupName.max} characters, not blank.`,
    },
  }),
  description: writable((s: GroupSource) => s.group.description, {
    domain: 'description',
    codec: groupValues.description,
    create: 'optional',
    replace: 'optional',
    resettable: true,
    said: { description: `At most ${limits.description.max} characters. Default "".` },
  }),
  users_url: answered(
    (s: GroupSource) => s.urls.groupUsers(s.group.id),
    url('The members of this group: GET it for the list of users.'),
  ),
  created_at: answered(
    (s: GroupSource) => timestamp(s.group.createdAt),
    timestampSchema('When the group was created.'),
  ),
  updated_at: answered(
    (s: GroupSource) => timestamp(s.group.updatedAt),
    timestampSchema('When the group last changed.'),
  ),
} satisfies FieldTable<GroupSource>;

/** The fields of a group's representation, in order (`embed` may ask for them). */
export const groupFields = shownNames<GroupSource, typeof groupTable>(groupTable);
