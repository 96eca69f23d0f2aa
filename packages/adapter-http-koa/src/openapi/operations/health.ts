import type { Operation, OperationContext } from './operation.js';
import { ref } from '../json.js';

// /healthz and /readyz, answered by the pipeline before the router.

export const healthOperations = ({ origin }: OperationContext): Operation[] => [
  {
    path: '/healthz',
    method: 'get',
    id: 'healthz',
    tag: 'Health',
    summary: 'Liveness',
    description:
      'The process answers. Unauthenticated, unversioned, not rate limited (no X-Rate-Limit-* headers). HEAD works too; other methods: 405.',
    access: 'health',
    success: { status: 200, shape: 'health', description: 'Alive.', schema: ref('Health'), example: { status: 'ok' } },
    errors: [],
    curl: `curl '${origin}/healthz'`,
  },
  {
    path: '/readyz',
    method: 'get',
    id: 'readyz',
    tag: 'Health',
    summary: 'Readiness',
    description:
      'Every start-up step is done (the store prepared, the first admin created; else 503 with 50302 naming the steps left) and the store answers (else 503 with 50301). Poll it before sending the first request: /healthz answers earlier. Unauthenticated, unversioned, not rate limited.',
    access: 'health',
    success: {
      status: 200,
      shape: 'health',
      description: 'Ready.',
      schema: ref('Health'),
      example: { status: 'ready' },
    },
    errors: ['ServiceUnavailable'],
    curl: `curl '${origin}/readyz'`,
  },
];
