// Every URL the API emits is absolute, on the configured public origin (never on the
// request's Host header, which a client controls).

export interface Urls {
  readonly origin: string;
  readonly tickets: string;
  ticket(id: number): string;
  messages(ticketId: number): string;
  message(ticketId: number, number: number): string;
  readonly uploads: string;
  attachment(id: number): string;
  attachmentContent(id: number): string;
  ticketAttachments(ticketId: number): string;
  readonly users: string;
  user(id: number): string;
  /** A personal access token, under its user. */
  personalToken(userId: number, id: number): string;
  readonly groups: string;
  readonly ticketFields: string;
  ticketField(id: number): string;
  group(id: number): string;
  groupUsers(id: number): string;
  readonly events: string;
  readonly webhooks: string;
  webhook(id: number): string;
  /** The absolute form of a request path (for Link headers). */
  path(path: string): string;
}

export const urlsFor = (origin: string): Urls => {
  const v1 = `${origin}/v1`;
  return {
    origin,
    tickets: `${v1}/tickets`,
    ticket: (id) => `${v1}/tickets/${id}`,
    messages: (ticketId) => `${v1}/tickets/${ticketId}/messages`,
    message: (ticketId, number) => `${v1}/tickets/${ticketId}/messages/${number}`,
    uploads: `${v1}/uploads`,
    attachment: (id) => `${v1}/attachments/${id}`,
    attachmentContent: (id) => `${v1}/attachments/${id}/content`,
    ticketAttachments: (ticketId) => `${v1}/tickets/${ticketId}/attachments`,
    users: `${v1}/users`,
    user: (id) => `${v1}/users/${id}`,
    personalToken: (userId, id) => `${v1}/users/${userId}/tokens/${id}`,
    groups: `${v1}/groups`,
    ticketFields: `${v1}/ticket_fields`,
    ticketField: (id) => `${v1}/ticket_fields/${id}`,
    group: (id) => `${v1}/groups/${id}`,
    groupUsers: (id) => `${v1}/groups/${id}/users`,
    events: `${v1}/events`,
    webhooks: `${v1}/webhooks`,
    webhook: (id) => `${v1}/webhooks/${id}`,
    path: (path) => `${origin}${path}`,
  };
};
