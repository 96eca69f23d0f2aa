import type { DomainError, FieldErrorCode } from '@support/domain';
import type { OAuthErrorCode } from '@support/application';

// THE error table of the API: every HTTP status this service answers with on failure,
// and every numeric `code` (HTTP status x 100 + n). Nothing else in the code base
// chooses a status or a code; the OpenAPI document lists exactly these rows.

export interface ErrorKind {
  readonly status: number;
  readonly code: number;
  /** The stable, human summary of this kind of error (`message` in the body). */
  readonly message: string;
}

const kind = (status: number, n: number, message: string): ErrorKind => ({ status, code: status * 100 + n, message });

export const errorKinds = {
  badQueryParameter: kind(400, 1, 'Invalid query parameter'),
  malformedBody: kind(400, 2, 'Malformed request body'),
  unknownApiVersion: kind(400, 3, 'Unknown API version'),
  badMethodOverride: kind(400, 4, 'Invalid method override'),
  tokenSentTwice: kind(400, 5, 'Token sent more than one way'),
  malformedRequest: kind(400, 6, 'Malformed request'),
  pageTooDeep: kind(400, 7, 'Page beyond the first 10000 items'),
  badIdempotencyKey: kind(400, 8, 'Invalid Idempotency-Key'),
  oauthInvalidRequest: kind(400, 10, 'Invalid token request'),
  oauthInvalidGrant: kind(400, 11, 'Invalid grant'),
  oauthUnsupportedGrantType: kind(400, 12, 'Unsupported grant type'),
  oauthInvalidScope: kind(400, 13, 'Invalid scope'),
  tokenMissing: kind(401, 1, 'Authentication required'),
  // An expired token is 'invalid' too (RFC 6750 invalid_token): stores forget a token once it
  // expires, so expired and unknown cannot be told apart.
  tokenInvalid: kind(401, 2, 'Invalid or expired access token'),
  forbidden: kind(403, 1, 'Forbidden'),
  tlsRequired: kind(403, 2, 'TLS required'),
  insufficientScope: kind(403, 3, 'Insufficient scope'),
  wrongCurrentPassword: kind(403, 4, 'Current password incorrect'),
  routeNotFound: kind(404, 1, 'Not found'),
  resourceNotFound: kind(404, 2, 'Resource not found'),
  methodNotAllowed: kind(405, 1, 'Method not allowed'),
  notAcceptable: kind(406, 1, 'Not acceptable'),
  requestTimeout: kind(408, 1, 'Request timeout'),
  conflict: kind(409, 1, 'Conflict'),
  idempotencyInFlight: kind(409, 2, 'Request with this Idempotency-Key in progress'),
  idempotencyAnswerLost: kind(409, 3, 'Request with this Idempotency-Key done, its answer lost'),
  gone: kind(410, 1, 'Gone'),
  eventsExpired: kind(410, 2, 'Events no longer kept'),
  preconditionFailed: kind(412, 1, 'Precondition failed'),
  payloadTooLarge: kind(413, 1, 'Request body too large'),
  uploadTooLarge: kind(413, 2, 'Upload too large'),
  unsupportedMediaType: kind(415, 1, 'Unsupported media type'),
  validationFailed: kind(422, 0, 'Validation failed'),
  // Past the field codes (42201...) of a validation failure's errors[].
  idempotencyKeyReused: kind(422, 50, 'Idempotency-Key reused for another request'),
  uploadInfected: kind(422, 51, 'Malware found in the upload'),
  rangeNotSatisfiable: kind(416, 1, 'Range not satisfiable'),
  rateLimited: kind(429, 1, 'Rate limit exceeded'),
  tooManyUploads: kind(429, 2, 'Too many unattached uploads'),
  loginThrottled: kind(429, 3, 'Too many failed logins'),
  headersTooLarge: kind(431, 1, 'Request header fields too large'),
  internal: kind(500, 1, 'Internal server error'),
  writeNotConfirmed: kind(500, 2, 'Write not confirmed'),
  storeTimeLimit: kind(500, 3, 'Data store time limit reached'),
  notImplemented: kind(501, 1, 'Not implemented'),
  storeUnavailable: kind(503, 1, 'Service unavailable'),
  starting: kind(503, 2, 'Service starting'),
  scannerUnavailable: kind(503, 3, 'Malware scanner unavailable'),
  passwordsBusy: kind(503, 4, 'Too many logins at once'),
  uploadsBusy: kind(503, 5, 'Too many uploads at once'),
} as const satisfies Record<string, ErrorKind>;

export type ErrorKindName = keyof typeof errorKinds;

/** `errors[].code` of a 422: one code per reason a field was refused. */
export const fieldErrorCodes: Readonly<Record<FieldErrorCode, number>> = {
  required: 42201,
  unknown_field: 42202,
  read_only: 42203,
  invalid_type: 42204,
  invalid_length: 42205,
  invalid_value: 42206,
  not_unique: 42207,
  invalid_transition: 42208,
  unknown_reference: 42209,
  not_permitted: 42210,
  limit_reached: 42211,
};

const unauthenticatedKind = (reason: 'missing' | 'invalid'): ErrorKind => {
  switch (reason) {
    case 'missing':
      return errorKinds.tokenMissing;
    case 'invalid':
      return errorKinds.tokenInvalid;
  }
};

/** The kind of a domain error (the use cases' expected failures). */
export const domainErrorKind = (e: DomainError): ErrorKind => {
  switch (e._tag) {
    case 'ValidationFailed':
      return errorKinds.validationFailed;
    case 'InvalidQuery':
      return errorKinds.badQueryParameter;
    case 'NotFound':
      return errorKinds.resourceNotFound;
    case 'Gone':
      return errorKinds.gone;
    case 'Forbidden':
      return errorKinds.forbidden;
    case 'InsufficientScope':
      return errorKinds.insufficientScope;
    case 'Unauthenticated':
      return unauthenticatedKind(e.reason);
    case 'PreconditionFailed':
      return errorKinds.preconditionFailed;
    case 'FeedExpired':
      return errorKinds.eventsExpired;
    case 'Conflict':
      return errorKinds.conflict;
    case 'WrongCurrentPassword':
      return errorKinds.wrongCurrentPassword;
    case 'LoginThrottled':
      return errorKinds.loginThrottled;
    case 'PageTooDeep':
      return errorKinds.pageTooDeep;
    case 'UploadTooLarge':
      return errorKinds.uploadTooLarge;
    case 'TooManyUploads':
      return errorKinds.tooManyUploads;
    case 'Infected':
      return errorKinds.uploadInfected;
    case 'ScannerUnavailable':
      return errorKinds.scannerUnavailable;
  }
};

/** RFC 6749 §5.2 errors of the token endpoint. */
export const oauthErrorKind = (error: OAuthErrorCode): ErrorKind => {
  switch (error) {
    case 'invalid_request':
      return errorKinds.oauthInvalidRequest;
    case 'invalid_grant':
      return errorKinds.oauthInvalidGrant;
    case 'unsupported_grant_type':
      return errorKinds.oauthUnsupportedGrantType;
    case 'invalid_scope':
      return errorKinds.oauthInvalidScope;
  }
};
