export const roles = ['customer', 'agent', 'admin'] as const;
export type Role = (typeof roles)[number];

export const isStaff = (role: Role): boolean => role === 'agent' || role === 'admin';
