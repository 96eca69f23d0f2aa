import { eventsQueryBounds, type DecodedQuery, type EventsQuery } from '@support/application';
import type { QueryIssue, UserId } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { integerParam, type QueryParams } from './query-params.js';

// GET /v1/events (contract §7.3): a cursor, not pages. `after` is the last seq the client has
// seen (0: from the start), `per_page` how many events at most, `wait` how many seconds to hold
// the request when nothing is newer, `actor_id` whose changes only (contract §8.3). Every bad
// parameter is named at once.

export const decodeEventsQuery = (params: QueryParams): DecodedQuery<EventsQuery> => {
  const issues: QueryIssue[] = [];
  const { perPage, waitSeconds } = eventsQueryBounds;
  const query: EventsQuery = {
    after: integerParam(params, 'after', { min: 0, max: Number.MAX_SAFE_INTEGER }, 0, issues),
    perPage: integerParam(params, 'per_page', perPage, perPage.fallback, issues),
    waitSeconds: integerParam(params, 'wait', waitSeconds, 0, issues),
    ...(params.actor_id === undefined
      ? {}
      : { actorId: integerParam(params, 'actor_id', { min: 1, max: Number.MAX_SAFE_INTEGER }, 0, issues) as UserId }),
  };
  return issues.length > 0 ? E.left(issues) : E.right(query);
};
