export const priorities = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof priorities)[number];

export const defaultPriority: Priority = 'normal';

/** low < normal < high < urgent: sorting by priority sorts by this rank, not by name. */
export const priorityRank = (p: Priority): number => priorities.indexOf(p);
