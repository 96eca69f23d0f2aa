import type { Answer } from './harness.js';

/**
 * Checks every answer the HTTP tests receive. The OpenAPI issue plugs the document
 * validator in here (status documented, body matches the schema, documented headers present);
 * until then it checks the conventions every answer must meet.
 */
export const responseChecks = {
  check(method: string, path: string, answer: Answer): void {
    if (answer.header('x-request-id') === undefined) throw new Error(`${method} ${path}: answer without X-Request-Id`);
  },
};
