import { operationNeeds as n } from '@support/application';
import { examples } from '../openapi/examples.js';
import { curlOn, listOf, roles } from '../openapi/operation.js';
import { decodeEventsQuery } from '../decode/events-query.js';
import { ok } from '../reply.js';
import { eventRepresentation } from '../representations/event.js';
import type { Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';
import { actorOf, unwrap } from './support.js';

// The change feed (contract §7.3): read by cursor, oldest first. With `wait`, a request that
// finds nothing newer is held (no CPU: the store wakes it) until an event arrives, the time is
// up or the server stops (options.shutdown), then answers what there is, possibly [].

export const eventRoutes = (api: DeclaringRouter, { app, urls, options }: Services): void => {
  const curl = curlOn(urls.origin);
  const ex = examples(urls.origin);
  api.get(
    '/v1/events',
    {
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
      needs: n.events.list,
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
    async (ctx) => {
      const page = unwrap(await app.events.list(actorOf(ctx), decodeEventsQuery(ctx.query), options.shutdown));
      ctx.state.reply = ok(
        page.items.map((e) => eventRepresentation(urls, e, page.fields)),
        { cursor: { after: page.next } },
      );
    },
  );
};
