import { openApiDocument } from '../openapi/document.js';
import { ok } from '../reply.js';
import type { AppRouter, Services } from '../state.js';

/**
 * GET /v1/openapi.json: the OpenAPI document, public. The `.json` suffix is dropped before
 * routing (conventions/format-suffix.ts), so the route is /v1/openapi. Built once.
 */
export const openApiRoutes = (router: AppRouter, { options }: Services): void => {
  const document = openApiDocument({
    publicUrl: options.publicUrl,
    versions: options.versions,
    deprecations: options.deprecations,
  });
  router.get('/v1/openapi', (ctx) => {
    ctx.state.reply = ok(document);
  });
};
