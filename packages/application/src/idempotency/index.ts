import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { checkRepeatAccess } from './repeat-access.js';
import { beginIdempotentRequest, idempotencyScope, type IdempotencyConfig } from './use-case.js';

/** The Idempotency-Key use cases. */
export const idempotencyUseCases = (ports: Ports, config: IdempotencyConfig): Application['idempotency'] => ({
  begin: (actor, clientIp, key, fingerprint) =>
    beginIdempotentRequest(ports, config, idempotencyScope(actor, clientIp), key, fingerprint),
  mayRepeat: checkRepeatAccess,
});
