import { deprecationRepresentation } from '../conventions/deprecation.js';
import { listOf } from '../openapi/operation.js';
import { ok } from '../reply.js';
import type { Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';

/** The published schedule of deprecations: public, like the rest of the documentation. */
export const deprecationRoutes = (api: DeclaringRouter, { urls, options }: Services): void => {
  const origin = urls.origin;
  const schedule = options.deprecations.map((d) => deprecationRepresentation(origin, d));
  api.get(
    '/v1/deprecations',
    {
      id: 'listDeprecations',
      tag: 'Documentation',
      summary: 'The deprecation schedule',
      description:
        'Every deprecated behaviour: when it was deprecated (the Deprecation header), when it may stop working (the Sunset header) and what to use instead. Public.',
      access: 'public',
      success: {
        status: 200,
        shape: 'document',
        description: 'The schedule.',
        schema: listOf('Deprecation'),
        example: schedule,
      },
      errors: [],
      curl: `curl '${origin}/v1/deprecations'`,
    },
    (ctx) => {
      const announced = options.deprecations.map((d) => Date.parse(d.deprecatedAt));
      ctx.state.reply = ok(schedule, { lastModified: announced.length === 0 ? null : Math.max(...announced) });
    },
  );
};
