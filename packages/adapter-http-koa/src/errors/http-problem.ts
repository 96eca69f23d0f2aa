import { maxListedFieldErrors, type DomainError } from '@support/domain';
import { sameNames, wireField, type WireNames } from '../wire-names.js';
import { domainErrorKind, errorKinds, fieldErrorCodes, type ErrorKind, type ErrorKindName } from './error-table.js';

/** One entry of `errors[]`: a refused field of a body, or a refused query parameter. */
export interface FieldProblem {
  readonly code: number;
  readonly field: string;
  readonly message: string;
  /** A refused state change: where the ticket may go instead (contract §7.2). */
  readonly allowed?: readonly string[];
}

export interface ProblemExtras {
  readonly errors?: readonly FieldProblem[];
  readonly headers?: Readonly<Record<string, string>>;
  /** RFC 6749 `error` member of a token-endpoint failure. */
  readonly oauthError?: string;
  /** An expired change-feed cursor: the oldest seq still kept, where to resume. */
  readonly oldestSeq?: number;
}

/** An HTTP failure on its way to the client: thrown by conventions and routes, rendered once. */
export class HttpProblem extends Error {
  override readonly name = 'HttpProblem';
  constructor(
    readonly kind: ErrorKind,
    readonly description: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(`${kind.code} ${kind.message}: ${description}`);
  }
}

export const problem = (name: ErrorKindName, description: string, extras?: ProblemExtras): HttpProblem =>
  new HttpProblem(errorKinds[name], description, extras);

/** RFC 6750 §3: error_description is %x20-21 / %x23-5B / %x5D-7E (no '"', no '\\'), or the header is malformed. */
const challengeText = (s: string): string => s.replace(/"/g, "'").replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, '');

/** Where clients send tokens; also the challenge of every 401 (RFC 6750 §3). */
export const bearerChallenge = (error?: 'invalid_token' | 'invalid_request', description?: string): string =>
  error === undefined
    ? 'Bearer realm="support"'
    : `Bearer realm="support", error="${error}"${description === undefined ? '' : `, error_description="${challengeText(description)}"`}`;

const describeTarget = (resource: string, id: string): string => {
  const [ticket, message] = id.split('/');
  return resource === 'message' && message !== undefined
    ? `message ${message} of ticket ${ticket ?? ''}`
    : `${resource === 'ticketField' ? 'ticket field' : resource} ${id}`;
};

const sendTokenHint =
  'send an access token as "Authorization: Bearer <token>", as Basic credentials with the token as user name and an empty password, or as ?access_token=<token>; get one from POST /v1/oauth/token';

/** The HTTP face of a use case's expected failure; `names` are the API's names of the resource's fields. */
export const domainProblem = (e: DomainError, names: WireNames = sameNames): HttpProblem => {
  const k = domainErrorKind(e);
  switch (e._tag) {
    case 'ValidationFailed': {
      const n = e.errors.length;
      const omitted = e.omitted ?? 0;
      const description =
        omitted === 0
          ? `${n} ${n === 1 ? 'field is' : 'fields are'} invalid; see errors`
          : `${n + omitted} fields are invalid; errors lists the first ${n}, and ${omitted} more are not listed`;
      return new HttpProblem(k, description, {
        errors: e.errors.map((f) => ({
          code: fieldErrorCodes[f.code],
          field: wireField(names, f),
          message: f.message,
          ...(f.allowed === undefined ? {} : { allowed: f.allowed }),
        })),
      });
    }
    case 'InvalidQuery': {
      // A value refused for the same reason is named once however often it was sent
      // (state=x,x,x...), and at most maxListedFieldErrors refusals are listed, as in a body's 422.
      const distinct = [...new Map(e.issues.map((i) => [`${i.parameter}\n${i.message}`, i])).values()];
      const listed = distinct.slice(0, maxListedFieldErrors);
      const more = distinct.length - listed.length;
      const description =
        more === 0
          ? listed.map((i) => `${i.parameter}: ${i.message}`).join('; ')
          : `${distinct.length} query parameter values are invalid; errors lists the first ${listed.length}, and ${more} more are not listed`;
      return new HttpProblem(k, description, {
        errors: listed.map((i) => ({ code: k.code, field: i.parameter, message: i.message })),
      });
    }
    case 'NotFound':
      return new HttpProblem(k, `there is no ${describeTarget(e.resource, e.id)}`);
    case 'Gone':
      return new HttpProblem(k, `${describeTarget(e.resource, e.id)} has been deleted`);
    case 'Forbidden':
      return new HttpProblem(
        k,
        e.fields === undefined ? e.message : `${e.message} ${e.fields.map(names.toWire).join(', ')}`,
      );
    case 'InsufficientScope': {
      const needed = e.needed.join(' ');
      return new HttpProblem(
        k,
        `this token's scopes do not allow this operation; it needs ${needed} (see X-OAuth-Scopes for what the token has)`,
        {
          headers: {
            'WWW-Authenticate': `Bearer realm="support", error="insufficient_scope", scope="${challengeText(needed)}"`,
          },
        },
      );
    }
    case 'Unauthenticated':
      return e.reason === 'missing'
        ? new HttpProblem(k, sendTokenHint, { headers: { 'WWW-Authenticate': bearerChallenge() } })
        : new HttpProblem(
            k,
            'the access token is unknown, revoked or expired; get a new one from POST /v1/oauth/token',
            {
              headers: {
                'WWW-Authenticate': bearerChallenge('invalid_token', 'the access token is unknown, revoked or expired'),
              },
            },
          );
    case 'PreconditionFailed':
      return new HttpProblem(
        k,
        'the resource has changed since the ETag given in If-Match; GET it again and retry with the new ETag',
      );
    case 'Conflict':
      return new HttpProblem(k, e.message);
    case 'WrongCurrentPassword':
      return new HttpProblem(
        k,
        'current_password is not your current password; the password was not changed (this counts as a failed login)',
      );
    case 'LoginThrottled':
      return new HttpProblem(
        k,
        `too many failed logins for this account; try again after the number of seconds in Retry-After`,
        { headers: { 'Retry-After': String(e.retryAfterSeconds) } },
      );
    case 'PageTooDeep':
      return new HttpProblem(
        k,
        `a page must start within the first ${e.maxOffset} items of a list (with this per_page, page ${e.deepestPage} is the deepest); narrow the list with a filter, q or another sort to reach later items`,
      );
    case 'FeedExpired':
      return new HttpProblem(
        k,
        `events before seq ${String(e.oldest)} are no longer kept; the oldest available is ${String(e.oldest)}: read from after=${String(e.oldest - 1)}`,
        {
          oldestSeq: e.oldest,
        },
      );
    case 'UploadTooLarge':
      return new HttpProblem(
        k,
        `an upload may have at most ${String(e.limit)} bytes (UPLOAD_MAX_BYTES); nothing was kept`,
      );
    case 'TooManyUploads':
      return new HttpProblem(
        k,
        `you hold ${String(e.limit)} uploads not attached to a message, the most one user may; attach them (attachment_ids on a new message) or let them expire`,
        { headers: { 'Retry-After': '60' } },
      );
    case 'Infected':
      return new HttpProblem(k, `the malware scanner found ${e.signature} in the file; nothing was kept`);
    case 'ScannerUnavailable':
      return new HttpProblem(k, 'the malware scanner could not be reached; nothing was kept: retry later', {
        headers: { 'Retry-After': '30' },
      });
  }
};
