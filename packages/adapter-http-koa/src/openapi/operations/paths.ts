import type { ApiVersions } from '../../conventions/api-version.js';
import type { Examples } from '../examples.js';
import type { Json } from '../json.js';
import { documentationOperations } from './documentation.js';
import { eventOperations } from './events.js';
import { groupOperations } from './groups.js';
import { healthOperations } from './health.js';
import { messageOperations } from './messages.js';
import { oauthOperations } from './oauth.js';
import type { Operation, OperationContext } from './operation.js';
import { pathsObject } from './render.js';
import { ticketOperations } from './tickets.js';
import { tokenOperations } from './tokens.js';
import { userOperations } from './users.js';
import { webhookOperations } from './webhooks.js';

// Every path and method the router serves (routes/router.ts, one file here per file there)
// plus /healthz, /readyz and /docs, which the pipeline answers. The server's HTTP tests
// check every answer they get against these operations.

/** Every operation, in the order of the router. */
export const allOperations = (context: OperationContext): Operation[] => [
  ...oauthOperations(context),
  ...ticketOperations(context),
  ...messageOperations(context),
  ...tokenOperations(context),
  ...userOperations(context),
  ...groupOperations(context),
  ...eventOperations(context),
  ...webhookOperations(context),
  ...documentationOperations(context),
  ...healthOperations(context),
];

/** The paths object of the document, in the order of the router. */
export const paths = (versions: ApiVersions, origin: string, ex: Examples, schedule: readonly unknown[]): Json =>
  pathsObject(versions, ex, allOperations({ origin, ex, schedule }));
