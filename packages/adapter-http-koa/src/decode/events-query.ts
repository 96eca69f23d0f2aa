import { eventsQueryBounds, type DecodedQuery, type EventsQuery } from '@support/application';
import type { QueryIssue } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { integerParam, type QueryParams } from './query-params.js';

// GET /v1/events (contract §7.3): a cursor, not pages. `after` is the last seq the client has
// seen (0: from the start), `per_page` how many events at most, `wait` how many seconds to hold
// the request when nothing is newer. Every bad parameter is named at once.

export const decodeEventsQuery = (params: QueryParams): DecodedQuery<EventsQuery> => {
  const issues: QueryIssue[] = [];
  const { perPage, waitSeconds } = eventsQueryBounds;
  const query: EventsQuery = {
    after: integerParam(params, 'after', { min: 0, max: Number.MAX_SAFE_INTEGER }, 0, issues),
    perPage: integerParam(params, 'per_page', perPage, perPage.fallback, issues),
    waitSeconds: integerParam(params, 'wait', waitSeconds, 0, issues),
  };
  return issues.length > 0 ? E.left(issues) : E.right(query);
};
