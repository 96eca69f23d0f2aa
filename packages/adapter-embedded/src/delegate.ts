import type { Store } from '@support/application';

/** Every method of a port, named: a list the compiler holds to the port (a method missing, or one the port has not, fails the build). */
type MethodList<T> = { readonly [K in keyof T]-?: true };

type Delegated = Exclude<keyof Store, 'events' | 'health' | 'blobs'>;

/**
 * The methods the embedded store hands on, per port (the change feed, health and the files' bytes are its own).
 * Written out rather than read off an object at run time: a port that gains a method fails the
 * build here until the embedded store hands it on too.
 */
export const portMethods: { readonly [P in Delegated]: MethodList<Store[P]> } = {
  tickets: { insert: true, findById: true, update: true, search: true, countHolding: true },
  ticketFields: { list: true, findById: true, insert: true, update: true, delete: true },
  messages: { insert: true, find: true, update: true, list: true, attachments: true },
  attachments: {
    insertUpload: true,
    find: true,
    countUnattached: true,
    references: true,
    expired: true,
    removeUpload: true,
  },
  users: {
    insert: true,
    findById: true,
    findByEmail: true,
    findByIds: true,
    update: true,
    delete: true,
    list: true,
    count: true,
  },
  groups: { insert: true, findById: true, findByIds: true, update: true, delete: true, list: true },
  tokens: { save: true, find: true, consume: true, revoke: true, revokeFamily: true },
  personalTokens: { insert: true, findByHash: true, findById: true, list: true, revoke: true, touch: true },
  rateLimits: { hit: true, count: true },
  idempotency: { claim: true, guard: true, complete: true, release: true },
  webhooks: {
    insert: true,
    findById: true,
    list: true,
    update: true,
    delete: true,
    due: true,
    lease: true,
    release: true,
    recordDelivery: true,
    deliveries: true,
  },
  ids: { next: true },
};

type Methods = Record<string, ((...args: never[]) => unknown) | undefined>;

/** Told when a delegated call starts, and awaited once one that answered a promise has settled (before it answers). */
export interface CallHooks {
  readonly started: () => void;
  readonly settled: () => Promise<void>;
}

/**
 * An object with the `methods` of a port, each calling that method on whatever `current()`
 * answers at the time of the call (the store is started after the ports are handed out).
 * While `wait()` answers a promise, a call starts once it resolves, and is refused when it
 * rejects (after a failed commit, every call is).
 */
export const delegate = <T extends object>(
  methods: MethodList<T>,
  current: () => T,
  wait: () => Promise<void> | null,
  hooks?: CallHooks,
): T => {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(methods)) {
    const call = (args: never[]): unknown => (current() as unknown as Methods)[name]?.(...args);
    const run = (args: never[]): unknown => {
      const waiting = wait();
      return waiting === null ? call(args) : waiting.then(() => call(args));
    };
    out[name] =
      hooks === undefined
        ? (...args: never[]) => run(args)
        : (...args: never[]) => {
            hooks.started();
            const r = run(args);
            if (!(r instanceof Promise)) {
              void hooks.settled();
              return r;
            }
            const after = (): Promise<void> => hooks.settled();
            return r.then(
              async (v: unknown) => {
                await after();
                return v;
              },
              async (e: unknown) => {
                await after();
                throw e;
              },
            );
          };
  }
  return out as T;
};
