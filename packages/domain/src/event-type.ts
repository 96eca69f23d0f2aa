// The names of the change feed's events (contract §7.3), which webhooks subscribe to.

export const eventResources = ['ticket', 'message', 'user', 'group'] as const;
export type EventResource = (typeof eventResources)[number];
export const eventActions = ['created', 'updated', 'deleted'] as const;
export type EventAction = (typeof eventActions)[number];
export type EventType = `${EventResource}.${EventAction}`;

export const eventTypes: readonly EventType[] = eventResources.flatMap((r) =>
  eventActions.map((a): EventType => `${r}.${a}`),
);
