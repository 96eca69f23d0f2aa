import type { Needs, RepeatAccess } from '@support/application';
import type { HeaderName } from './headers.js';
import type { Examples } from './examples.js';
import { ref, type Json } from './json.js';

// How one operation is described: a plain record, declared where its route is registered
// (routes/declare.ts), turned into the OpenAPI operation object by render.ts, so that a
// declaration says only what differs between operations (scopes, summary, roles, bodies,
// errors) and none of the headers, parameters and error answers every operation shares.

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/**
 * token: needs an access token; public: none needed (a bad one is still refused); oauth: the token endpoints;
 * health: load balancers; docs: the HTML page, answered before tokens and presentation parameters are looked at.
 */
export type Access = 'token' | 'public' | 'oauth' | 'health' | 'docs';
/** secret: a creation whose answer shows a secret once (no-store, no ETag). */
export type Shape =
  | 'single'
  | 'list'
  | 'feed'
  | 'created'
  | 'secret'
  | 'written'
  | 'token'
  | 'empty'
  | 'document'
  | 'health'
  | 'html'
  | 'asset'
  /** An attachment's bytes: any media type, 206 for a Range. */
  | 'content'
  /** 204, no body. */
  | 'deleted';

/** An operation that takes a token names the scopes it needs (the application's operationNeeds); no other does. */
export type Reach =
  | { readonly access: 'token'; readonly needs: Needs }
  | { readonly access: Exclude<Access, 'token'>; readonly needs?: never };

/**
 * A POST an Idempotency-Key can repeat: who may run it (checked again before a repeat is
 * answered, contract §11), and the member of its answer that is a secret (kept, and repeated, as null).
 */
export interface Keyed {
  readonly access: RepeatAccess;
  readonly secret?: 'secret' | 'token';
}

/** An operation as its route declares it: the router knows where it is. */
export type Declaration = Reach & {
  /** Every POST that takes a token is keyed (routes/catalog.ts holds it). */
  readonly keyed?: Keyed;
  readonly id: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly params?: readonly string[];
  readonly body?: {
    readonly schema: string;
    readonly example: Json;
    readonly mergePatch?: boolean;
    readonly form?: boolean;
    /** The body is a file's bytes (an upload): any media type raw, or multipart/form-data. */
    readonly binary?: boolean;
    readonly examples?: Record<string, Json>;
  };
  readonly success: {
    readonly status: 200 | 201 | 204;
    readonly shape: Shape;
    readonly description: string;
    readonly schema?: Json;
    readonly example?: unknown;
    readonly extraHeaders?: readonly HeaderName[];
  };
  readonly errors: readonly string[];
  readonly deprecated?: boolean;
  readonly curl: string;
};

/** A declared operation at its documented path and method. */
export type Operation = Declaration & { readonly path: string; readonly method: Method };

/** What the operations of a resource are described with: the server's origin and the sample bodies on it. */
export interface OperationContext {
  readonly origin: string;
  readonly ex: Examples;
  /** The published deprecation schedule, the example of GET /v1/deprecations. */
  readonly schedule: readonly unknown[];
}

/** The roles paragraph that closes an operation's description. */
export const roles = (s: string): string => `\n\nRoles: ${s}`;

/** The curl sample of an authenticated call on `origin`, with a JSON body when given. */
export const curlOn =
  (origin: string) =>
  (method: string, path: string, body?: Json, extra = ''): string => {
    const auth = '-H "Authorization: Bearer $TOKEN"';
    const json = "-H 'Content-Type: application/json'";
    return `curl ${method === 'GET' ? '' : `-X ${method} `}${auth} ${extra}${body === undefined ? '' : `${json} -d '${JSON.stringify(body)}' `}'${origin}${path}'`.replace(
      / {2,}/g,
      ' ',
    );
  };

export const listOf = (schema: string): Json => ({ type: 'array', items: ref(schema) });

/** The success of a write: 201 with Location for a creation, else 200 with the resource as it now is. */
export const writable = (shape: 'written' | 'created', schema: string, example: unknown): Operation['success'] => ({
  status: shape === 'created' ? 201 : 200,
  shape,
  description:
    shape === 'created' ? 'Created: the new resource, with its URL in Location.' : 'The resource as it now is.',
  schema: ref(schema),
  example,
});

export const listParams = ['State', 'Sort', 'Q', 'Fields', 'Embed', 'Page', 'PerPage'];
/** The ticket lists' parameters: the list's, and the queue filters (contract §5). */
export const ticketListParams = [
  ...listParams,
  'AssignedUserId',
  'GroupIdFilter',
  'CustomerIdFilter',
  'PriorityFilter',
  'Tags',
  'UpdatedSince',
];
/** The errors of a write with a body, beyond those every operation can answer. */
export const writeErrors = ['PayloadTooLarge', 'UnsupportedMediaType', 'ValidationFailed'];
export const idErrors = ['NotFound'];
/** A ticket, and everything inside it, can also be gone (soft-deleted). */
export const ticketErrors = ['NotFound', 'Gone'];
