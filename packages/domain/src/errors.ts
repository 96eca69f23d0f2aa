// Expected failures of the domain, as values. HTTP statuses and numeric codes are not
// decided here: the HTTP adapter maps each tag and field code in one table.

/** Why one field of an input was refused. */
export type FieldErrorCode =
  | 'required' // missing, or null where a value is needed
  | 'unknown_field' // not a field of this resource
  | 'read_only' // set by the server, or not writable in this operation
  | 'invalid_type' // wrong JSON type
  | 'invalid_length' // string or list outside its bounds
  | 'invalid_value' // outside the allowed values or format
  | 'not_unique' // another resource already has this value
  | 'invalid_transition' // the ticket state machine refuses this change
  | 'unknown_reference' // names a user or group that does not exist or cannot take this role
  | 'not_permitted' // this caller may not write this field
  | 'limit_reached'; // the caller already holds as many of these as one may

export interface FieldError {
  /**
   * The domain's name of the field (a dotted path into it: "tags.3"); for unknown_field and
   * read_only, the key of the request body as it was sent.
   */
  readonly field: string;
  readonly code: FieldErrorCode;
  readonly message: string;
  /** For a refused state change: the states the caller may move the ticket to instead. */
  readonly allowed?: readonly string[];
}

export const fieldError = (field: string, code: FieldErrorCode, message: string): FieldError => ({
  field,
  code,
  message,
});

/** Why one query parameter was refused; `value` is the offending part of it. */
export interface QueryIssue {
  readonly parameter: string;
  readonly value: string;
  readonly message: string;
}

export type ResourceKind = 'ticket' | 'message' | 'user' | 'group' | 'webhook' | 'token' | 'attachment' | 'ticketField';

export type DomainError =
  /** `omitted`: how many more fields were refused than `errors` lists (at most `maxListedFieldErrors` are). */
  | { readonly _tag: 'ValidationFailed'; readonly errors: readonly FieldError[]; readonly omitted?: number }
  | { readonly _tag: 'InvalidQuery'; readonly issues: readonly QueryIssue[] }
  | { readonly _tag: 'NotFound'; readonly resource: ResourceKind; readonly id: string }
  | { readonly _tag: 'Gone'; readonly resource: ResourceKind; readonly id: string }
  /** `fields`: the fields the caller may not write (domain names), which the answer names after `message`. */
  | { readonly _tag: 'Forbidden'; readonly message: string; readonly fields?: readonly string[] }
  /** The token's scopes do not cover the operation (contract §8.2): `needed` are the scopes that would. */
  | { readonly _tag: 'InsufficientScope'; readonly needed: readonly string[] }
  | { readonly _tag: 'Unauthenticated'; readonly reason: 'missing' | 'invalid' }
  | { readonly _tag: 'PreconditionFailed' }
  /** The page starts past the first `maxOffset` items of a list (the deepest for its per_page: `deepestPage`). */
  | { readonly _tag: 'PageTooDeep'; readonly maxOffset: number; readonly deepestPage: number }
  /** The change feed no longer keeps the events after the cursor asked for; `oldest` is the oldest kept seq. */
  | { readonly _tag: 'FeedExpired'; readonly oldest: number }
  | { readonly _tag: 'Conflict'; readonly message: string }
  /** An upload's bytes passed the limit (`limit` bytes); nothing was kept. */
  | { readonly _tag: 'UploadTooLarge'; readonly limit: number }
  /** The uploader already holds `limit` unattached uploads. */
  | { readonly _tag: 'TooManyUploads'; readonly limit: number }
  /** The malware scanner found `signature` in an upload; nothing was kept. */
  | { readonly _tag: 'Infected'; readonly signature: string }
  /** The malware scanner could not be asked; nothing was kept. */
  | { readonly _tag: 'ScannerUnavailable' }
  /** A user changing their own password gave a wrong current one (contract §11; counted as a failed login). */
  | { readonly _tag: 'WrongCurrentPassword' }
  /** Too many failed logins for this account lately (contract §11): try again after `retryAfterSeconds`. */
  | { readonly _tag: 'LoginThrottled'; readonly retryAfterSeconds: number };

/** A refusal lists at most this many field errors (contract §11); the rest are only counted. */
export const maxListedFieldErrors = 100;

/** A validation failure listing at most `maxListedFieldErrors` errors; `omitted` more were found but not listed. */
export const validationFailed = (errors: readonly FieldError[], omitted = 0): DomainError => {
  const over = Math.max(0, errors.length - maxListedFieldErrors);
  const more = omitted + over;
  return more === 0
    ? { _tag: 'ValidationFailed', errors }
    : { _tag: 'ValidationFailed', errors: errors.slice(0, maxListedFieldErrors), omitted: more };
};
export const invalidQuery = (issues: readonly QueryIssue[]): DomainError => ({ _tag: 'InvalidQuery', issues });
export const notFound = (resource: ResourceKind, id: string | number): DomainError => ({
  _tag: 'NotFound',
  resource,
  id: String(id),
});
export const gone = (resource: ResourceKind, id: string | number): DomainError => ({
  _tag: 'Gone',
  resource,
  id: String(id),
});
export const forbidden = (message: string): DomainError => ({ _tag: 'Forbidden', message });
export const forbiddenFields = (message: string, fields: readonly string[]): DomainError => ({
  _tag: 'Forbidden',
  message,
  fields,
});
export const insufficientScope = (needed: readonly string[]): DomainError => ({ _tag: 'InsufficientScope', needed });
export const unauthenticated = (reason: 'missing' | 'invalid'): DomainError => ({
  _tag: 'Unauthenticated',
  reason,
});
export const preconditionFailed: DomainError = { _tag: 'PreconditionFailed' };
export const conflict = (message: string): DomainError => ({ _tag: 'Conflict', message });
export const feedExpired = (oldest: number): DomainError => ({ _tag: 'FeedExpired', oldest });
export const uploadTooLarge = (limit: number): DomainError => ({ _tag: 'UploadTooLarge', limit });
export const tooManyUploads = (limit: number): DomainError => ({ _tag: 'TooManyUploads', limit });
export const infected = (signature: string): DomainError => ({ _tag: 'Infected', signature });
export const scannerUnavailable: DomainError = { _tag: 'ScannerUnavailable' };
export const wrongCurrentPassword: DomainError = { _tag: 'WrongCurrentPassword' };
export const loginThrottled = (retryAfterSeconds: number): DomainError & { readonly _tag: 'LoginThrottled' } => ({
  _tag: 'LoginThrottled',
  retryAfterSeconds,
});
