import { decodeEventsQuery } from '../decode/events-query.js';
import { ok } from '../reply.js';
import { eventRepresentation } from '../representations/event.js';
import type { AppRouter, Services } from '../state.js';
import { actorOf, unwrap } from './support.js';

// The change feed (contract §7.3): read by cursor, oldest first. With `wait`, a request that
// finds nothing newer is held (no CPU: the store wakes it) until an event arrives, the time is
// up or the server stops (options.shutdown), then answers what there is, possibly [].

export const eventRoutes = (router: AppRouter, { app, urls, options }: Services): void => {
  router.get('/v1/events', async (ctx) => {
    const page = unwrap(await app.events.list(actorOf(ctx), decodeEventsQuery(ctx.query), options.shutdown));
    ctx.state.reply = ok(
      page.items.map((e) => eventRepresentation(urls, e)),
      { cursor: { after: page.next } },
    );
  });
};
