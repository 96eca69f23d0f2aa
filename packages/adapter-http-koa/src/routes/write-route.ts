import type { Actor, DecodedBody, WriteOptions } from '@support/application';
import type { DomainError } from '@support/domain';
import type { RouterMiddleware } from '@koa/router';
import type * as E from 'fp-ts/lib/Either.js';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { decodeBody, type BodyCodec } from '../decode/object-codec.js';
import { ok } from '../reply.js';
import type { RequestState, RouteContext } from '../state.js';
import type { WireNames } from '../wire-names.js';
import { actorOf, unwrap } from './support.js';

// The one PUT and PATCH of every resource (tickets, messages, users, groups, webhooks, custom
// field definitions): the caller, the target from the path, the body (a PATCH also as a merge
// patch) decoded by the resource's codec, the use case under If-Match, the resource as it now is.

export interface WriteRoute<Target, Input, Written> {
  /** What the path names (a 404 or 405 for a path that names nothing is thrown here, before the body is read). */
  readonly target: (ctx: RouteContext) => Target;
  readonly codec: BodyCodec<Input>;
  readonly run: (
    actor: Actor,
    target: Target,
    body: DecodedBody<Input>,
    options: WriteOptions<Written>,
  ) => Promise<E.Either<DomainError, Written>>;
  /** The representation If-Match is checked against and the answer shows. */
  readonly represent: (written: Written) => Record<string, unknown>;
  readonly lastModified: (written: Written) => number;
  /** The API's names for the fields a refusal names (default: alike). */
  readonly names?: WireNames;
}

export const writeRoute =
  <Target, Input, Written>(
    method: 'put' | 'patch',
    w: WriteRoute<Target, Input, Written>,
  ): RouterMiddleware<RequestState> =>
  async (ctx) => {
    const actor = actorOf(ctx);
    const target = w.target(ctx);
    const body = await readBody(ctx, method === 'patch' ? [mediaTypes.json, mediaTypes.mergePatch] : [mediaTypes.json]);
    const options = ifMatchOption(ctx.get('If-Match'), w.represent);
    const written = unwrap(await w.run(actor, target, decodeBody(w.codec, body), options), w.names);
    ctx.state.reply = ok(w.represent(written), { lastModified: w.lastModified(written) });
  };
