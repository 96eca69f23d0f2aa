export { createHttpApp } from './app.js';
export type { HttpLogger, HttpOptions } from './options.js';
export { answerClientError, maxHeaderBytes } from './node/client-error.js';
export { apiVersions, type ApiVersions } from './conventions/api-version.js';
export { defaultDeprecations, type Deprecation, type DeprecationSchedule } from './conventions/deprecation.js';
export { maxBodyBytes } from './conventions/request-body.js';
export { errorKinds, fieldErrorCodes, type ErrorKind } from './errors/error-table.js';
export { parseHttpDate, formatHttpDate } from './conventions/http-date.js';
