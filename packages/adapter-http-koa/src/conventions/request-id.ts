import { randomUUID } from 'node:crypto';

// Every response carries X-Request-Id: the client's own id when it is a sane token
// (1-128 of [A-Za-z0-9._-], so it is safe to log and echo), else a new UUID.

export const requestIdHeader = 'X-Request-Id';
const acceptable = /^[A-Za-z0-9._-]{1,128}$/;

export const requestIdFrom = (given: string): string => (acceptable.test(given) ? given : randomUUID());
