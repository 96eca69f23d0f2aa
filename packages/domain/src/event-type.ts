// The names of the change feed's events (contract §7.3, §10), which webhooks subscribe to.

/** The resources the feed reports on; `ticket_field` is a custom field's definition (contract §10). */
export type EventResource = 'ticket' | 'message' | 'user' | 'group' | 'ticket_field';
export const eventResources: readonly EventResource[] = ['ticket', 'message', 'user', 'group', 'ticket_field'];
export const eventActions = ['created', 'updated', 'deleted'] as const;
export type EventAction = (typeof eventActions)[number];
export type EventType = `${EventResource}.${EventAction}`;

export const eventTypes: readonly EventType[] = eventResources.flatMap((r) =>
  eventActions.map((a): EventType => `${r}.${a}`),
);
