import { expect } from 'chai';
import { Agent } from 'node:https';
import { startApi, type Api } from '../support/harness.js';
import { createTicket, type Json } from '../support/resources.js';
import {
  adminCompact,
  etagOf,
  header,
  httpDate,
  revisionOf,
  variants,
  keptAliveSender,
  type Got,
  type Variant,
} from '../support/cached-variants.js';

// The response cache (adapter-http-koa cache/) keeps rendered bytes, ETags and gzip between
// requests. Whatever it keeps, no answer may carry an ETag or a body of another version than
// the one the store has: while one client changes a ticket again and again, many others read
// it at once, in every presentation, as every role, plain, gzipped and revalidating, and every
// answer is checked:
//   - its ETag is the one the service's rule gives for its body (conventions/etag.ts and
//     answer-bytes.ts: SHA-1, base64url, of the compact JSON of what is sent, plus "\n" and
//     the total on a list, plus "\n" and the callback for JSONP), and Last-Modified is the
//     body's updated_at;
//   - it shows no revision older than one acknowledged before the request was sent (to the
//     writer, or seen by the same reader before);
//   - a 304 is answered only for a tag whose revision is not older than that;
//   - allowed_transitions are the caller's (they differ by role, so must the cached bytes).
// The same runs with a budget small enough that entries are evicted and rendered again all
// the time. The change feed renders tickets as an admin sees them: every revision it records
// is the admin's representation at that revision.

const run = (budget: string | null): void => {
  describe(`HTTP: cached answers under concurrent changes (RESPONSE_CACHE_BYTES ${budget ?? 'default'})`, function () {
    this.timeout(120_000);
    let api: Api;
    let agentKeepAlive: Agent;
    const tokens: Record<Variant['who'], string> = { admin: '', agent: '', customer: '' };

    before(async () => {
      api = await startApi({
        STORE: 'memory',
        RATE_LIMIT: '1000000',
        ...(budget === null ? {} : { RESPONSE_CACHE_BYTES: budget }),
      });
      tokens.admin = await api.adminToken();
      tokens.agent = (await api.userWithToken('agent')).token;
      const customer = await api.userWithToken('customer');
      tokens.customer = customer.token;
      agentKeepAlive = new Agent({ keepAlive: true, maxSockets: 24, ca: api.server.cert });
      // Other tickets in the list, so the page is more than the one that changes.
      for (let i = 0; i < 3; i++)
        await createTicket(api, tokens.admin, {
          subject: `Other ${i}`,
          summary: 'a quokka too',
          customer_id: customer.id,
        });
      ticketId = (
        await createTicket(api, tokens.admin, {
          subject: 'Revision 0',
          summary: 'the quokka ticket',
          customer_id: customer.id,
        })
      ).id as number;
    });
    after(async () => {
      agentKeepAlive.destroy();
      await api.close();
    });
    let ticketId = 0;

    const send = (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Got> =>
      keptAliveSender(api, agentKeepAlive)(method, path, headers, body);

    it('never answers an ETag or a body of another version, nor an older version than one acknowledged before', async () => {
      const revisions = 40;
      let acknowledged = 0;
      let done = false;
      /** Per variant: the revision each ETag was seen with (a 304 is checked against it). */
      const tagRevision = new Map<string, number>();
      /** Per revision: the admin's compact representation, for the change feed. */
      const adminAt = new Map<number, string>();
      let answers = 0;
      let notModified = 0;

      const check = (v: Variant, g: Got, floor: number, sentTag: string | null): number => {
        answers += 1;
        const etag = header(g, 'etag');
        expect(etag, `${v.name}: ETag`).to.be.a('string');
        if (g.status === 304) {
          notModified += 1;
          expect(sentTag, `${v.name}: a 304 without If-None-Match`).to.not.equal(null);
          expect(etag, `${v.name}: the 304 names the tag revalidated`).to.equal(sentTag);
          const revision = tagRevision.get(`${v.name} ${etag}`);
          expect(revision, `${v.name}: a 304 for a tag never served`).to.be.a('number');
          expect(revision, `${v.name}: a 304 for revision ${revision} after ${floor} was acknowledged`).to.be.at.least(
            floor,
          );
          return revision ?? floor;
        }
        expect(g.status, `${v.name}: ${g.text}`).to.equal(200);
        let json = g.text;
        if (v.callback !== undefined) {
          const prefix = `/**/${v.callback}(`;
          expect(g.text.startsWith(prefix) && g.text.endsWith(');'), `${v.name}: JSONP`).to.equal(true);
          json = g.text.slice(prefix.length, -2);
        }
        const body = JSON.parse(json) as unknown;
        const compact = JSON.stringify(body);
        // The bytes are the presentation asked for, not another's kept under the same key.
        const pretty = !v.path(ticketId).includes('pretty=false');
        expect(json, `${v.name}: layout`).to.equal(pretty ? `${JSON.stringify(body, null, 2)}\n` : compact);
        const { tickets } = v.tickets(body);
        const total = header(g, 'x-total-count');
        const content = `${compact}${total === undefined ? '' : `\n${total}`}${v.callback === undefined ? '' : `\n${v.callback}`}`;
        expect(etag, `${v.name}: the ETag is not the body's`).to.equal(etagOf(content));
        const mine = tickets.filter((t) => t.id === ticketId);
        expect(mine, `${v.name}: the ticket in the answer`).to.have.length(1);
        const t = mine[0] as Json;
        const revision = revisionOf(t.subject);
        // Representations differ by caller: the states this caller may move the open ticket to.
        if ('allowed_transitions' in t)
          expect(t.allowed_transitions, `${v.name}: allowed_transitions`).to.deep.equal(
            v.who === 'customer' ? ['closed'] : ['pending', 'closed'],
          );
        expect(revision, `${v.name}: revision ${revision} after ${floor} was acknowledged`).to.be.at.least(floor);
        if (total === undefined)
          expect(header(g, 'last-modified'), `${v.name}: Last-Modified`).to.equal(httpDate(t.updated_at));
        const key = `${v.name} ${etag}`;
        const known = tagRevision.get(key);
        expect(
          known === undefined || known === revision,
          `${v.name}: one ETag for revisions ${known} and ${revision}`,
        ).to.equal(true);
        tagRevision.set(key, revision);
        if (v.name === 'admin, compact, gzip') adminAt.set(revision, compact);
        return revision;
      };

      const reader = async (v: Variant): Promise<void> => {
        let seen = 0;
        let lastTag: string | null = null;
        while (!done) {
          const floor = Math.max(acknowledged, seen);
          const sentTag = v.revalidate === true ? lastTag : null;
          const headers: Record<string, string> = {
            authorization: `Bearer ${tokens[v.who]}`,
            ...(v.gzip ? { 'accept-encoding': 'gzip' } : {}),
            ...(sentTag === null ? {} : { 'if-none-match': sentTag }),
          };
          const g = await send('GET', v.path(ticketId), headers);
          seen = check(v, g, floor, sentTag);
          lastTag = header(g, 'etag') ?? null;
        }
      };

      const writer = async (): Promise<void> => {
        for (let k = 1; k <= revisions; k++) {
          api.clock.advance(1000);
          const a = await send(
            'PATCH',
            `/v1/tickets/${ticketId}`,
            { authorization: `Bearer ${tokens.admin}` },
            { subject: `Revision ${k}`, priority: k % 2 === 0 ? 'high' : 'low' },
          );
          expect(a.status, a.text).to.equal(200);
          acknowledged = k;
          // Reading its own write, as the same client, right after the acknowledgement.
          const own = await send('GET', `/v1/tickets/${ticketId}?pretty=false`, {
            authorization: `Bearer ${tokens.admin}`,
            'accept-encoding': 'gzip',
          });
          expect(check(adminCompact, own, k, null)).to.be.at.least(k);
          // Let the readers in between two writes.
          await new Promise((r) => setTimeout(r, 5));
        }
        done = true;
      };

      // Three readers per variant: the same cache entries are asked for at once.
      await Promise.all([writer(), ...variants.flatMap((v) => [reader(v), reader(v), reader(v)])]);
      expect(answers).to.be.greaterThan(revisions * variants.length);
      expect(notModified).to.be.greaterThan(0);

      // The change feed: each update of the ticket carries the admin's representation at that revision.
      const feed = await send('GET', '/v1/events?after=0&per_page=100&pretty=false', {
        authorization: `Bearer ${tokens.admin}`,
      });
      expect(feed.status, feed.text).to.equal(200);
      const events = (JSON.parse(feed.text) as { type: string; resource: { id: number }; data: Json | null }[]).filter(
        (e) => e.type === 'ticket.updated' && e.resource.id === ticketId,
      );
      expect(events).to.have.length(revisions);
      let compared = 0;
      for (const e of events) {
        const revision = revisionOf(e.data?.subject);
        const read = adminAt.get(revision);
        if (read === undefined) continue;
        expect(JSON.stringify(e.data), `the feed's revision ${revision}`).to.equal(read);
        compared += 1;
      }
      expect(compared).to.be.greaterThan(revisions / 2);
    });
  });
};

run(null);
run('30000');
