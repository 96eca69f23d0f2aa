import { listOf, type Operation, type OperationContext } from './operation.js';
import { ref } from '../json.js';

// routes/deprecations.ts, routes/openapi.ts and the /docs page the pipeline serves.

export const documentationOperations = ({ origin, schedule }: OperationContext): Operation[] => [
  {
    path: '/v1/deprecations',
    method: 'get',
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
  {
    path: '/v1/openapi.json',
    method: 'get',
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
  {
    path: '/docs',
    method: 'get',
    id: 'getDocs',
    tag: 'Documentation',
    summary: 'Human-readable documentation',
    description:
      'An HTML page rendered from this document (Swagger UI, served by this service; nothing is loaded from another origin). Public and unversioned: no token is looked at, and pretty, envelope and callback do not apply. Rate limited per client IP. /docs/ works too.',
    access: 'docs',
    success: { status: 200, shape: 'html', description: 'The page.' },
    errors: [],
    curl: `curl '${origin}/docs'`,
  },
  {
    path: '/docs/assets/{file}',
    method: 'get',
    id: 'getDocsAsset',
    tag: 'Documentation',
    summary: 'A file of the documentation page',
    description: 'The stylesheet, scripts and icons the page uses (a fixed list; anything else is 404).',
    access: 'docs',
    params: ['DocsFile'],
    success: { status: 200, shape: 'asset', description: 'The file.' },
    errors: ['NotFound'],
    curl: `curl '${origin}/docs/assets/swagger-ui.css'`,
  },
];
