import {
  allowedTransitions,
  scopeCovers,
  type Group,
  type GroupId,
  type Ticket,
  type TicketFieldDefinition,
  type TicketRelation,
  type User,
  type UserId,
} from '@support/domain';
import { actorScopes, type Actor } from '../actor.js';
import { staff } from '../policy.js';
import type { Ports } from '../ports/index.js';
import type { Related, TicketRelations, TicketView } from '../views.js';

/** Agents and admins see related users and groups whole; a customer sees themself whole, others by id and name. */
const relatedUser = (actor: Actor, u: User): Related<User, UserId> =>
  staff(actor) || u.id === actor.user.id ? { kind: 'full', value: u } : { kind: 'limited', id: u.id, name: u.name };

const relatedGroup = (actor: Actor, g: Group): Related<Group, GroupId> =>
  staff(actor) ? { kind: 'full', value: g } : { kind: 'limited', id: g.id, name: g.name };

/** Views of tickets with the relations `embed` asked for, loaded in one batch per kind. */
export const withRelations = async (
  ports: Pick<Ports, 'users' | 'groups'>,
  actor: Actor,
  tickets: readonly Ticket[],
  embed: readonly TicketRelation[],
  fields: readonly TicketFieldDefinition[],
): Promise<TicketView[]> => {
  // Nothing to load: the common read (no `embed`) needs no batch and no lookups.
  if (embed.length === 0) return tickets.map((ticket) => bareView(actor, ticket, fields));
  // A user is expanded only for a token that may read users (contract §11): else it stays a link.
  const readsUsers = scopeCovers(actorScopes(actor), 'users:read');
  const embedsCustomer = readsUsers && embed.includes('customer');
  const embedsAssignee = readsUsers && embed.includes('assignedUser');
  const embedsGroup = embed.includes('group');
  const userIds = new Set<UserId>();
  const groupIds = new Set<GroupId>();
  for (const t of tickets) {
    if (embedsCustomer) userIds.add(t.customerId);
    if (embedsAssignee && t.assignedUserId !== null) userIds.add(t.assignedUserId);
    if (embedsGroup && t.groupId !== null) groupIds.add(t.groupId);
  }
  const [users, groups] = await Promise.all([
    userIds.size > 0 ? ports.users.findByIds([...userIds]) : Promise.resolve([]),
    groupIds.size > 0 ? ports.groups.findByIds([...groupIds]) : Promise.resolve([]),
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const groupById = new Map(groups.map((g) => [g.id, g]));
  const user = (id: UserId | null): Related<User, UserId> | null => {
    const u = id === null ? undefined : userById.get(id);
    return u === undefined ? null : relatedUser(actor, u);
  };
  return tickets.map((ticket) => {
    const related: { -readonly [K in keyof TicketRelations]: TicketRelations[K] } = {};
    if (embedsCustomer) related.customer = user(ticket.customerId);
    if (embedsAssignee) related.assignedUser = user(ticket.assignedUserId);
    if (embedsGroup) {
      const g = ticket.groupId === null ? undefined : groupById.get(ticket.groupId);
      related.group = g === undefined ? null : relatedGroup(actor, g);
    }
    return { ticket, related, allowedTransitions: transitionsFor(actor, ticket), fields };
  });
};

/** The states this caller may move the ticket to now (the domain's state machine, by role). */
const transitionsFor = (actor: Actor, t: Ticket): TicketView['allowedTransitions'] =>
  allowedTransitions(t.state, t.deletedAt !== null, actor.user.role);

/** `fields`: the custom fields this caller sees (ticket-fields/use-cases.ts `fieldsFor`). */
export const bareView = (actor: Actor, ticket: Ticket, fields: readonly TicketFieldDefinition[]): TicketView => ({
  ticket,
  related: {},
  allowedTransitions: transitionsFor(actor, ticket),
  fields,
});
