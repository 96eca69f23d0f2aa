// The request mix of bench:soak (soak.ts), by weight: ticket lists (plain, filtered and
// searched, as the admin and as customers), single tickets (a third revalidated with
// If-None-Match), a ticket's messages, /v1/users/me, the change feed; writes ~22%: new tickets
// (customers), PATCH of state and priority (admin), new messages.
import type { Call, Timed } from './support/https-client.js';
import type { Seeded } from './support/seeded.js';

export interface MixContext {
  readonly send: (method: string, path: string, call?: Omit<Call, 'method' | 'path'>) => Promise<Timed>;
  readonly jsonOf: (a: Timed) => unknown;
  readonly lastSeq: (page: unknown) => number | null;
  readonly idOf: (a: Timed) => number;
  readonly admin: string;
  readonly customers: readonly { readonly id: number; readonly token: string }[];
  readonly tickets: { id: number; etag: string | null }[];
  readonly draw: Pick<Seeded, 'int' | 'pick' | 'rng'>;
  readonly words: readonly string[];
  /** Headers of a POST: an Idempotency-Key when SOAK_IDEMPOTENT=1. */
  readonly once: () => Record<string, string>;
  /** SOAK_WRITES: 'mixed' (the default), 'none' (=0), 'patch'. */
  readonly writes: 'mixed' | 'none' | 'patch';
  /** The feed's newest seq seen so far, shared with the store-size reading. */
  readonly feed: { newestSeq: number };
}

/** The next request to send, drawn by weight. */
export const soakMix = (ctx: MixContext): (() => () => Promise<Timed>) => {
  const { send, jsonOf, lastSeq, admin, customers, tickets, words, once } = ctx;
  const { int, pick, rng } = ctx.draw;
  const phrase = (n: number) => Array.from({ length: n }, () => pick(words)).join(' ');
  const mix: [number, () => Promise<Timed>][] = [
    [14, () => send('GET', '/v1/tickets?per_page=30', { token: admin })],
    [
      8,
      () => send('GET', `/v1/tickets?state=open,pending&sort=-priority,created_at&q=${pick(words)}`, { token: admin }),
    ],
    [8, () => send('GET', '/v1/tickets?per_page=10', { token: pick(customers).token })],
    [
      12,
      async () => {
        const t = pick(tickets);
        const a = await send('GET', `/v1/tickets/${t.id}`, { token: admin });
        if (a.status === 200) t.etag = a.headers.etag ?? null;
        return a;
      },
    ],
    [
      8,
      () => {
        const t = pick(tickets);
        return send('GET', `/v1/tickets/${t.id}`, {
          token: admin,
          headers: t.etag === null ? {} : { 'If-None-Match': t.etag },
        });
      },
    ],
    [8, () => send('GET', `/v1/tickets/${pick(tickets).id}/messages`, { token: admin })],
    [5, () => send('GET', '/v1/users/me', { token: pick(customers).token })],
    [
      3,
      async () => {
        const a = await send('GET', `/v1/events?after=${Math.max(0, ctx.feed.newestSeq - 20)}&per_page=30`, {
          token: admin,
        });
        if (a.status === 200) ctx.feed.newestSeq = Math.max(ctx.feed.newestSeq, lastSeq(jsonOf(a)) ?? 0);
        return a;
      },
    ],
    [
      7,
      async () => {
        const c = pick(customers);
        const a = await send('POST', '/v1/tickets', {
          token: c.token,
          body: { subject: phrase(3), summary: phrase(10) },
          headers: once(),
        });
        if (a.status === 201) tickets.push({ id: ctx.idOf(a), etag: null });
        return a;
      },
    ],
    [
      9,
      () =>
        send('PATCH', `/v1/tickets/${pick(tickets).id}`, {
          token: admin,
          body:
            rng() < 0.5
              ? { priority: pick(['low', 'normal', 'high', 'urgent']) }
              : { state: pick(['open', 'pending', 'closed']) },
        }),
    ],
    [
      6,
      () =>
        send('POST', `/v1/tickets/${pick(tickets).id}/messages`, {
          token: admin,
          body: { body: phrase(8), internal: rng() < 0.3 },
          headers: once(),
        }),
    ],
  ];
  // The last three entries are the writes. SOAK_WRITES=patch: the same share of writes, all of them
  // PATCHes of existing tickets, so that the store holds as many records at the end as at the start
  // and any RSS growth is the service's own (the change feed's events go to LMDB, not to memory).
  if (ctx.writes === 'none') mix.splice(mix.length - 3, 3);
  if (ctx.writes === 'patch') {
    const patch = mix.splice(mix.length - 3, 3)[1]; // new tickets, PATCH, new messages
    if (patch !== undefined) mix.push([22, patch[1]]);
  }
  const totalWeight = mix.reduce((s, [w]) => s + w, 0);
  const next = () => {
    let x = int(totalWeight);
    for (const [w, f] of mix) {
      if (x < w) return f;
      x -= w;
    }
    return mix[0]?.[1] ?? (() => send('GET', '/healthz'));
  };

  return next;
};
