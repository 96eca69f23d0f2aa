import { startApi, type Api, type ApiOptions } from './harness.js';

// The start-the-API hooks the HTTP suites share: one API per describe block, started before
// its tests and closed after them (the suites' isolation: no two blocks share a service).

/**
 * Registers the hooks of the enclosing describe block: `startApi(env, apiOptions)` before its
 * tests, closed after them. Answers the block's API; its own `before` hooks, registered after
 * this call, run once it is started. Used before that, it throws.
 */
export const suiteApi = (env: Readonly<Record<string, string>> = {}, apiOptions: ApiOptions = {}): Api => {
  let started: Api | undefined;
  before(async () => {
    started = await startApi(env, apiOptions);
  });
  after(async () => {
    await started?.close();
  });
  const api = (): Api => {
    if (started === undefined)
      throw new Error("the suite's API is started by its before hook: use it in hooks and tests");
    return started;
  };
  return {
    get server() {
      return api().server;
    },
    get clock() {
      return api().clock;
    },
    get origin() {
      return api().origin;
    },
    get logs() {
      return api().logs;
    },
    request: (method, path, options) => api().request(method, path, options),
    get: (path, options) => api().get(path, options),
    post: (path, body, options) => api().post(path, body, options),
    login: (email, password) => api().login(email, password),
    adminToken: () => api().adminToken(),
    userWithToken: (role, name) => api().userWithToken(role, name),
    close: () => api().close(),
  };
};

/**
 * Registers the hooks of the enclosing describe block: `start` before its tests (a cast of
 * support/casts.ts or the like: it starts the API and makes what the block starts with), the
 * API it answers closed after them.
 */
export const suiteCast = (start: () => Promise<{ readonly api: Api }>): void => {
  let started: Api | undefined;
  before(async () => {
    started = (await start()).api;
  });
  after(async () => {
    await started?.close();
  });
};
