import type { Related, TicketView } from '@support/application';
import type { Group, User } from '@support/domain';
import { link, nullableTimestamp, pick, timestamp, type Link } from './common.js';
import { plainOptions, type EmbedSelection, type RepresentationOptions } from './fields.js';
import { groupRepresentation } from './group.js';
import type { Urls } from './urls.js';
import { userRepresentation } from './user.js';

// A ticket: related users and groups exist on their own, so they appear as link objects
// {id, url}; `embed` expands them (all of it, or the link plus dotted sub-fields);
// `fields` keeps only the named top-level fields. Messages are behind `messages_url`.

/**
 * A related resource as `embed` asked for it. A customer sees other users (and groups)
 * only by id and name ("limited"): asking for more of them shows just that.
 */
const expand = <T>(
  base: Link,
  related: Related<T, number> | null | undefined,
  selection: EmbedSelection | undefined,
  represent: (value: T) => Record<string, unknown>,
): Record<string, unknown> => {
  if (selection === undefined || related === undefined || related === null) return { ...base };
  const full = related.kind === 'full' ? represent(related.value) : { ...base, name: related.name };
  if (selection === 'all') return full;
  return { ...base, ...pick(full, selection) };
};

export const ticketRepresentation = (
  urls: Urls,
  view: TicketView,
  options: RepresentationOptions = plainOptions,
): Record<string, unknown> => {
  const { ticket: t, related } = view;
  const { embed } = options;
  const user = (u: User): Record<string, unknown> => userRepresentation(urls, u);
  const group = (g: Group): Record<string, unknown> => groupRepresentation(urls, g);
  const full: Record<string, unknown> = {
    id: t.id,
    url: urls.ticket(t.id),
    subject: t.subject,
    summary: t.summary,
    state: t.state,
    priority: t.priority,
    customer: expand(link(t.customerId, urls.user(t.customerId)), related.customer, embed.customer, user),
    customer_name: t.customerName,
    assigned_user:
      t.assignedUserId === null
        ? null
        : expand(link(t.assignedUserId, urls.user(t.assignedUserId)), related.assignedUser, embed.assignedUser, user),
    group:
      t.groupId === null ? null : expand(link(t.groupId, urls.group(t.groupId)), related.group, embed.group, group),
    tags: t.tags,
    created_at: timestamp(t.createdAt),
    updated_at: timestamp(t.updatedAt),
    closed_at: nullableTimestamp(t.closedAt),
    messages_url: urls.messages(t.id),
    allowed_transitions: view.allowedTransitions,
  };
  return options.fields === null ? full : pick(full, options.fields);
};
