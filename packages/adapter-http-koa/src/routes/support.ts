import type { Actor, ListResult } from '@support/application';
import { parseIdSegment, unauthenticated, type DomainError } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { domainProblem, problem } from '../errors/http-problem.js';
import type { PageInfo } from '../reply.js';
import type { AppContext, RouteContext } from '../state.js';
import type { WireNames } from '../wire-names.js';

// Small helpers every route uses: who is calling, path ids, use-case results.

/** The authenticated caller; 401 when the request carried no token. */
export const actorOf = (ctx: AppContext): Actor => {
  if (ctx.state.actor === null) throw domainProblem(unauthenticated('missing'));
  return ctx.state.actor;
};

/** A numeric id from the path; anything else (abc, 007, -1) names no resource: 404. */
export const idParam = (ctx: RouteContext, name: string, what: string): number => {
  const raw = ctx.params[name] ?? '';
  const id = parseIdSegment(raw);
  if (id === null)
    throw problem('routeNotFound', `there is no ${what} "${raw.slice(0, 40)}": ${what} ids are positive integers`);
  return id;
};

/** The value of a use case's success; its expected failure becomes the HTTP problem, naming fields by `names`. */
export const unwrap = <T>(r: E.Either<DomainError, T>, names?: WireNames): T => {
  if (E.isLeft(r)) throw domainProblem(r.left, names);
  return r.right;
};

export const pageInfo = (l: ListResult<unknown>): PageInfo => ({
  page: l.page.page,
  perPage: l.page.perPage,
  total: l.total,
});
