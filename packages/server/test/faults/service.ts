import { adminToken, startMain, type ChildAnswer, type Exit, type Started } from '../server/child.js';

/** The service as a plain `node` process on the embedded store, with an admin's token. */
export interface Service {
  readonly started: Started;
  readonly token: string;
  call(method: string, path: string, body?: unknown): Promise<ChildAnswer>;
}

export const adminPassword = 'faults-admin-1';

export const faultEnv = (dir: string, more: Readonly<Record<string, string>> = {}): Record<string, string> => ({
  STORE: 'embedded',
  DATA_DIR: dir,
  ADMIN_PASSWORD: adminPassword,
  RATE_LIMIT: '1000000000',
  ...more,
});

/** `method path` on `started` as the bearer of `token`, with `body` (when given) as JSON. */
export const callAs = (
  started: Started,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ChildAnswer> =>
  started.request(
    method,
    path,
    body === undefined
      ? { headers: { Authorization: `Bearer ${token}` } }
      : {
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        },
  );

export const serviceOn = async (
  env: Readonly<Record<string, string>>,
  prefix: readonly string[] = [],
): Promise<Service> => {
  const started = await startMain(env, 30_000, prefix);
  const token = await adminToken(started, adminPassword);
  const call = (method: string, path: string, body?: unknown): Promise<ChildAnswer> =>
    callAs(started, token, method, path, body);
  return { started, token, call };
};

/** A customer made by the admin (the test's only one); answers its id, or throws with the answer unless 201. */
export const newCustomer = async (s: Service): Promise<number> => {
  const made = await s.call('POST', '/v1/users', {
    name: 'Fault Customer',
    email: 'fault-customer@example.com',
    role: 'customer',
    password: 'fault-customer-1',
  });
  if (made.status !== 201) throw new Error(`the customer was not made: ${String(made.status)} ${made.text}`);
  return (made.json as { id: number }).id;
};

/** Every ticket, id -> subject, read page by page. */
export const allTickets = async (s: Service): Promise<Map<number, string>> => {
  const listed = new Map<number, string>();
  for (let page = 1; ; page += 1) {
    const list = await s.call('GET', `/v1/tickets?sort=id&per_page=100&page=${String(page)}`);
    const items = list.json as { id: number; subject: string }[];
    for (const t of items) listed.set(t.id, t.subject);
    if (items.length < 100) return listed;
  }
};

/** The feed's seqs, checked gap-free from 1; answers the ids of its ticket.created events. */
export const feedTicketIds = async (s: Service): Promise<number[]> => {
  const created: number[] = [];
  let after = 0;
  for (;;) {
    const events = (await s.call('GET', `/v1/events?after=${String(after)}&per_page=100`)).json as {
      seq: number;
      type: string;
      resource: { id: number };
    }[];
    if (events.length === 0) return created.sort((a, b) => a - b);
    for (const e of events) {
      if (e.seq !== after + 1) throw new Error(`the feed has a gap: seq ${String(e.seq)} after ${String(after)}`);
      after = e.seq;
      if (e.type === 'ticket.created') created.push(e.resource.id);
    }
  }
};

/** Resolves with the exit, or rejects after `ms`. */
export const exitWithin = (s: Started, ms: number): Promise<Exit> =>
  Promise.race([
    s.exited,
    new Promise<Exit>((_, reject) =>
      setTimeout(() => {
        reject(new Error(`the service did not exit within ${String(ms)} ms: ${s.stdout().slice(-2000)}`));
      }, ms).unref(),
    ),
  ]);
