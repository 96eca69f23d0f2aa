import type { Json } from '../json.js';
import { id, url } from './fields.js';
import { answerProperties } from '../../resources/field-table.js';
import { groupTable } from '../../resources/groups.js';
import { userTable } from '../../resources/users.js';

// How one resource points at another: the link {id, url}, which embed can expand.

const userLinkProperties = { ...answerProperties(userTable), id: id('The user.'), url: url('The user.') };

export const linkSchemas = (): Record<string, Json> => ({
  Link: {
    type: 'object',
    description: 'A related resource that exists on its own.',
    additionalProperties: false,
    required: ['id', 'url'],
    properties: { id: id('The related resource.'), url: url('The related resource.') },
  },
  UserLink: {
    type: 'object',
    description:
      'A user related to a ticket: the link {id, url}; with embed=<relation> the whole user, with embed=<relation>.<field> the link plus that field. A customer sees other users only by id, url and name.',
    additionalProperties: false,
    required: ['id', 'url'],
    properties: userLinkProperties,
  },
  GroupLink: {
    type: 'object',
    description:
      'A group related to a ticket: the link {id, url}; with embed=group the whole group, with embed=group.<field> the link plus that field.',
    additionalProperties: false,
    required: ['id', 'url'],
    properties: { ...answerProperties(groupTable), id: id('The group.'), url: url('The group.') },
  },
});
