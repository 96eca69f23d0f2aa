import type { Application } from '@support/application';

/**
 * Tests only (CRASH_BEFORE_KEEPING, a development setting: warned at start). The request that
 * carries this Idempotency-Key runs as any other; once its answer is ready, where the service
 * would keep it for the key, the process kills itself with SIGKILL: the crash between a keyed
 * request's write and the keeping of its answer, as it happens
 * (server/test/faults/idempotency-crash.test.ts). `key` null: the application as it is.
 */
export const crashBeforeKeeping = (app: Application, key: string | null): Application => {
  if (key === null) return app;
  return {
    ...app,
    idempotency: {
      ...app.idempotency,
      begin: async (actor, clientIp, k, fingerprint) => {
        const decision = await app.idempotency.begin(actor, clientIp, k, fingerprint);
        if (decision.kind !== 'run' || k !== key) return decision;
        return {
          ...decision,
          finish: () => {
            process.kill(process.pid, 'SIGKILL');
            return new Promise<void>(() => undefined);
          },
        };
      },
    },
  };
};
