import { acceptedScopes } from '@support/application';
import type { Declaration, Method, Operation } from '../openapi/operation.js';

// The operations the routes declare (routes/declare.ts), in the order of the router: the
// document's paths and each answer's X-Accepted-OAuth-Scopes are read from here.

/** /v1/tickets/:ticketId as the document spells it: /v1/tickets/{ticket_id}. */
export const documentedPath = (routerPath: string): string =>
  routerPath.replace(/:([A-Za-z]+)/g, (_, name: string) => `{${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`);

/** Every operation declared, at its documented path, with the scopes each router path and method accepts. */
export interface OperationCatalog {
  readonly operations: Operation[];
  /** X-Accepted-OAuth-Scopes by method and router path (HEAD as GET): "" where no scope is needed. */
  readonly acceptedScopes: (method: string, routerPath: string) => string;
  readonly add: (method: Method, routerPath: string, d: Declaration, documented?: string) => void;
}

export const operationCatalog = (): OperationCatalog => {
  const operations: Operation[] = [];
  const scopes = new Map<string, string>();
  return {
    operations,
    acceptedScopes: (method, path) => scopes.get(`${method === 'HEAD' ? 'GET' : method} ${path}`) ?? '',
    add: (method, routerPath, d, documented) => {
      const op: Operation = { ...d, path: documented ?? documentedPath(routerPath), method };
      if (operations.some((o) => o.path === op.path && o.method === method))
        throw new Error(`${method} ${op.path} is declared twice`);
      if (operations.some((o) => o.id === op.id)) throw new Error(`operation id ${op.id} is declared twice`);
      // An Idempotency-Key repeat is answered only after the checks the operation declares (contract §11).
      if (method === 'post' && op.access === 'token' && op.keyed === undefined)
        throw new Error(`POST ${op.path} takes an Idempotency-Key: its declaration must say who may repeat it (keyed)`);
      operations.push(op);
      if (op.access === 'token')
        scopes.set(`${method.toUpperCase()} ${routerPath}`, acceptedScopes(op.needs).join(', '));
    },
  };
};
