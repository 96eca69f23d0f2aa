// The service under test in the anchors: the real entry point in its own process, on the memory
// store, with the benchmark's certificate (support/service.ts); then seeded over HTTPS as a
// client would (a customer, tickets: support/seed.ts).
import type { Certificate } from '../support/cert.js';
import { createTickets, createUser } from '../support/seed.js';
import { startServiceProcess, type Service } from '../support/service.js';
import { ticketBodies } from './seed-data.js';

export interface SeededService extends Service {
  readonly ticketIds: readonly number[];
  readonly customerId: number;
}

export interface SeededOptions {
  readonly prefix: readonly string[];
  readonly tls: Certificate;
  readonly tickets: number;
  readonly nodeArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** 'pipe' to read its stdout (log lines, --trace-gc); discarded by default. */
  readonly stdout?: 'pipe' | 'ignore';
}

/** Starts and seeds one service process (`nodeArgs` before the script, e.g. --cpu-prof). */
export const startService = async ({ prefix, tls, tickets, nodeArgs = [], env = {}, stdout }: SeededOptions) => {
  const service = await startServiceProcess({
    prefix,
    tls,
    nodeArgs,
    env,
    ...(stdout === undefined ? {} : { stdout }),
  });
  const customerId = await createUser(service.http, service.token, {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'customer',
    password: 'analytical-engine',
  });
  const ticketIds = await createTickets(service.http, service.token, ticketBodies(tickets, customerId));
  const seeded: SeededService = { ...service, ticketIds, customerId };
  return seeded;
};
