import { withCustomFields } from '../openapi/custom-fields.js';
import { buildDocument } from '../openapi/document.js';
import type { Json } from '../openapi/json.js';
import { ref } from '../openapi/json.js';
import { ok } from '../reply.js';
import type { Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';

/**
 * GET /v1/openapi.json: the OpenAPI document, public. The `.json` suffix is dropped before
 * routing (conventions/format-suffix.ts), so the route is /v1/openapi. Built once, at the
 * first request, when every route has declared its operation; then derived with the custom
 * fields defined now (contract §10), again only when a definition changed.
 */
export const openApiRoutes = (api: DeclaringRouter, { app, options, operations }: Services): void => {
  const origin = options.publicUrl;
  let document: Json | null = null;
  let made: { key: string; document: Json } | null = null;
  api.getAs(
    '/v1/openapi',
    '/v1/openapi.json',
    {
      id: 'getOpenApiDocument',
      tag: 'Documentation',
      summary: 'This OpenAPI document',
      description: 'The complete OpenAPI 3.1 document of this API. Public.',
      access: 'public',
      success: {
        status: 200,
        shape: 'document',
        description: 'The document.',
        schema: ref('OpenApiDocument'),
        example: { openapi: '3.1.0', info: { title: 'Support Ticket API', version: '1.1' }, paths: {} },
      },
      errors: [],
      curl: `curl '${origin}/v1/openapi.json'`,
    },
    async (ctx) => {
      document ??= buildDocument(
        { publicUrl: options.publicUrl, versions: options.versions, deprecations: options.deprecations },
        operations.operations,
      );
      const defs = await app.ticketFields.described();
      const key = defs.map((d) => `${d.id}.${d.version}`).join(',');
      if (made?.key !== key) made = { key, document: withCustomFields(document, defs) };
      ctx.state.reply = ok(made.document);
    },
  );
};
