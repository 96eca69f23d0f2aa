import { deprecationRepresentation } from '../conventions/deprecation.js';
import { ok } from '../reply.js';
import type { AppRouter, Services } from '../state.js';

/** The published schedule of deprecations: public, like the rest of the documentation. */
export const deprecationRoutes = (router: AppRouter, { urls, options }: Services): void => {
  router.get('/v1/deprecations', (ctx) => {
    const schedule = options.deprecations;
    const announced = schedule.map((d) => Date.parse(d.deprecatedAt));
    ctx.state.reply = ok(
      schedule.map((d) => deprecationRepresentation(urls.origin, d)),
      { lastModified: announced.length === 0 ? null : Math.max(...announced) },
    );
  });
};
