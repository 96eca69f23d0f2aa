import { expect } from 'chai';
import { Agent } from 'node:https';
import { startApi, type Api } from '../support/harness.js';
import { etagOf, header, keptAliveSender } from '../support/cached-variants.js';
import { createTicket, obj, type Json } from '../support/resources.js';

// Queues under concurrent changes (contract §5 queue filters, §6 caching): while an admin moves
// one ticket out of four queues and back again and again (reassigned, regrouped, retagged,
// closed, then the reverse), an agent's clients read those queues at once, plain and
// revalidating. Every answer is checked against what the writer had acknowledged before the
// request was sent: the ticket leaves a page as soon as the write that took it out has been
// answered (never an older page, never a 304 for a page that still showed it), and comes back
// likewise. Even revisions are in every queue, odd ones in none.

interface Got {
  readonly status: number;
  readonly etag: string | undefined;
  readonly text: string;
  readonly total: string | undefined;
}

/** What a page showed of the moving ticket: its revision, or that it was not there. */
type Seen = { readonly present: true; readonly revision: number } | { readonly present: false };

const run = (budget: string | null): void => {
  describe(`HTTP: queues under concurrent changes, no stale page and no stale 304 (RESPONSE_CACHE_BYTES ${budget ?? 'default'})`, function () {
    this.timeout(120_000);
    let api: Api;
    let keepAlive: Agent;
    let admin = '';
    let ada = { id: 0, token: '' };
    let bob = { id: 0, token: '' };
    let group = 0;
    let moving = 0;

    before(async () => {
      api = await startApi({
        STORE: 'memory',
        RATE_LIMIT: '1000000',
        ...(budget === null ? {} : { RESPONSE_CACHE_BYTES: budget }),
      });
      admin = await api.adminToken();
      ada = await api.userWithToken('agent', 'Ada Agent');
      bob = await api.userWithToken('agent', 'Bob Agent');
      const customer = await api.userWithToken('customer');
      const g = await api.post('/v1/groups', { name: 'Queue' }, { token: admin });
      group = obj(g).id as number;
      keepAlive = new Agent({ keepAlive: true, maxSockets: 16, ca: api.server.cert });
      const inQueues = {
        assigned_user_id: ada.id,
        group_id: group,
        tags: ['vip'],
        priority: 'urgent',
        customer_id: customer.id,
      };
      // Tickets that stay in every queue, so that a page is more than the one that moves.
      for (let i = 0; i < 3; i++) await createTicket(api, admin, { subject: `Stays ${i}`, ...inQueues });
      moving = (await createTicket(api, admin, { subject: 'Revision 0', ...inQueues })).id as number;
    });
    after(async () => {
      keepAlive.destroy();
      await api.close();
    });

    const send = async (
      method: string,
      path: string,
      headers: Record<string, string>,
      body?: unknown,
    ): Promise<Got> => {
      const g = await keptAliveSender(api, keepAlive)(method, path, headers, body);
      return { status: g.status, etag: header(g, 'etag'), text: g.text, total: header(g, 'x-total-count') };
    };

    it('a ticket leaves (and rejoins) every cached page of a queue as soon as the write is answered', async () => {
      const queues = [
        '/v1/tickets?assigned_user_id=me&per_page=10',
        `/v1/tickets?group_id=${group}&per_page=10&pretty=false`,
        '/v1/tickets?tags=vip&per_page=10',
        '/v1/tickets?state=open&priority=urgent&per_page=10',
      ];
      const revisions = 30;
      let started = 0;
      let acknowledged = 0;
      let done = false;
      const tags = new Map<string, Seen>();
      const counts = { answers: 0, notModified: 0, present: 0, absent: 0 };

      /** Whether some revision in [from, to] has the given parity (even: in the queues). */
      const someRevision = (from: number, to: number, inQueue: boolean): boolean => {
        for (let r = from; r <= to; r++) if ((r % 2 === 0) === inQueue) return true;
        return false;
      };
      const check = (path: string, seen: Seen, floor: number, ceiling: number, what: string): void => {
        if (seen.present) {
          expect(seen.revision % 2, `${what}: revision ${seen.revision} is out of the queues`).to.equal(0);
          expect(seen.revision, `${what}: revision ${seen.revision} after ${floor} was acknowledged`).to.be.within(
            floor,
            ceiling,
          );
        } else {
          expect(
            someRevision(floor, ceiling, false),
            `${what}: the ticket is missing, yet revisions ${floor}-${ceiling} all have it (${path})`,
          ).to.equal(true);
        }
      };

      const reader = async (path: string, revalidate: boolean): Promise<void> => {
        let lastTag: string | null = null;
        while (!done) {
          const floor = acknowledged;
          const headers: Record<string, string> = {
            authorization: `Bearer ${ada.token}`,
            'accept-encoding': 'gzip',
            ...(revalidate && lastTag !== null ? { 'if-none-match': lastTag } : {}),
          };
          const g = await send('GET', path, headers);
          const ceiling = started;
          counts.answers += 1;
          expect(g.etag, path).to.be.a('string');
          const key = `${path} ${g.etag ?? ''}`;
          if (g.status === 304) {
            counts.notModified += 1;
            expect(g.etag).to.equal(lastTag);
            const seen = tags.get(key);
            expect(seen, `${path}: a 304 for a tag never served`).to.not.equal(undefined);
            if (seen !== undefined) check(path, seen, floor, ceiling, `${path}, 304`);
            continue;
          }
          expect(g.status, g.text).to.equal(200);
          const items = JSON.parse(g.text) as Json[];
          expect(g.etag, `${path}: the ETag is not the body's`).to.equal(
            etagOf(`${JSON.stringify(items)}\n${g.total ?? ''}`),
          );
          const mine = items.find((t) => t.id === moving);
          const seen: Seen =
            mine === undefined
              ? { present: false }
              : { present: true, revision: Number(String(mine.subject).replace('Revision ', '')) };
          counts[seen.present ? 'present' : 'absent'] += 1;
          check(path, seen, floor, ceiling, path);
          const known = tags.get(key);
          expect(
            known === undefined || JSON.stringify(known) === JSON.stringify(seen),
            `${path}: one ETag for two pages`,
          ).to.equal(true);
          tags.set(key, seen);
          lastTag = g.etag ?? null;
        }
      };

      const writer = async (): Promise<void> => {
        for (let k = 1; k <= revisions; k++) {
          api.clock.advance(1000);
          const out = { assigned_user_id: bob.id, group_id: null, tags: [], state: 'closed' };
          const back = { assigned_user_id: ada.id, group_id: group, tags: ['vip'], state: 'open' };
          started = k;
          const a = await send(
            'PATCH',
            `/v1/tickets/${moving}`,
            { authorization: `Bearer ${admin}` },
            { subject: `Revision ${k}`, ...(k % 2 === 1 ? out : back) },
          );
          expect(a.status, a.text).to.equal(200);
          acknowledged = k;
          await new Promise((r) => setTimeout(r, 5));
        }
        done = true;
      };

      await Promise.all([
        writer(),
        ...queues.flatMap((path) => [reader(path, false), reader(path, true), reader(path, true)]),
      ]);
      expect(counts.answers).to.be.greaterThan(revisions * queues.length);
      expect(counts.notModified, 'some revalidations answered 304').to.be.greaterThan(0);
      expect(counts.present, 'pages with the ticket').to.be.greaterThan(0);
      expect(counts.absent, 'pages without it').to.be.greaterThan(0);
    });
  });
};

run(null);
run('30000');
