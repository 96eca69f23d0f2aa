import { curlOn, listOf, roles, type Operation, type OperationContext } from './operation.js';

// routes/events.ts: the change feed.

export const eventOperations = ({ origin, ex }: OperationContext): Operation[] => {
  const curl = curlOn(origin);
  return [
    {
      path: '/v1/events',
      method: 'get',
      id: 'listEvents',
      tag: 'Events',
      summary: 'Read the change feed',
      description:
        'Every committed change of a ticket, message, user or group, oldest first, as a bare array: the events with a seq above after. ' +
        'Link rel="next" is always present (after = the last seq of this page, or the same after when it is empty): follow it to read on, now or later. ' +
        'With wait, a read that finds nothing newer is held until an event arrives or the seconds are up (then []). ' +
        "Each event names its actor (the user, and the personal access token, whose request made it; or the system); actor_id narrows the feed to one user's changes. " +
        `An after older than the oldest kept event is 410 (41002) with oldest_seq.${roles('agent, admin.')}`,
      access: 'token',
      params: ['After', 'EventsPerPage', 'Wait', 'ActorId'],
      success: {
        status: 200,
        shape: 'feed',
        description: 'The events after the cursor, oldest first (possibly none).',
        schema: listOf('Event'),
        example: [ex.event, ex.eventDeleted],
      },
      errors: ['FeedExpired'],
      curl: curl('GET', '/v1/events?after=1041&per_page=100&wait=25'),
    },
  ];
};
