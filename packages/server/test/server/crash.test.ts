import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropUnsynced, faultShim, notRun } from '../faults/shim.js';
import { adminToken, startMain, type ChildAnswer, type Started } from './child.js';
import { callAs } from '../faults/service.js';

// Acknowledged means durable: the service on the embedded store, under concurrent writes, is
// SIGKILLed at random moments; after each restart every write whose answer had arrived is
// there with the exact value it was given (or the value of the one write in flight on it at the
// kill), the feed has no gap, and every event's change is there (and every change has its
// event). Uploads and attaches run among the writes (contract §9): every acknowledged upload's
// and attachment's bytes are there with their SHA-256, and no record names missing bytes.
// The power-cut run does the same with every write not yet fsynced taken back after
// the kill (an LD_PRELOAD shim keeps an undo log of unsynced writes, replayed backwards), as a
// power cut at that moment would leave the disk. Seeded: CRASH_SEED=<n> replays a run,
// CRASH_KILLS=<n> sets how many kills (default 20), POWER_CUTS=<n> how many power cuts (default 6;
// `pnpm test:faults` runs more).

const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
const random = (s: number): (() => number) => {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

interface Acknowledged {
  /**
   * Ticket id -> the subject its last acknowledged write gave it, the writer that owns it (only
   * that writer edits it, one write at a time), and the subject of its edit in flight, if any.
   */
  readonly tickets: Map<number, { subject: string; owner: number; inFlight: string | null }>;
  /** "ticket/number" of every message whose 201 arrived. */
  readonly messages: Set<string>;
  /** Upload id -> the SHA-256 of its bytes, for every upload whose 201 arrived (attached since, or not). */
  readonly files: Map<number, string>;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

for (const mode of ['SIGKILL', 'power cut'] as const)
  describe(`server: the embedded store under ${mode}`, function () {
    const kills = Number(
      (mode === 'SIGKILL' ? process.env.CRASH_KILLS : process.env.POWER_CUTS) ?? (mode === 'SIGKILL' ? 20 : 6),
    );
    this.timeout(300_000 + kills * 20_000);
    let dir: string;
    let child: Started | null = null;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'support-crash-'));
    });
    after(() => {
      if (child !== null && !child.hasExited()) child.proc.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    it(`loses no acknowledged write across ${String(kills)} ${mode === 'SIGKILL' ? 'kills' : 'power cuts'} (seed ${String(seed)})`, async function () {
      const next = random(seed);
      const shim = mode === 'SIGKILL' ? null : faultShim();
      if (shim !== null && 'missing' in shim) {
        notRun('The power-cut test', shim.missing);
        this.skip();
      }
      const undo = join(dir, 'undo.log');
      const control = join(dir, 'shim-control');
      const env = {
        STORE: 'embedded',
        DATA_DIR: join(dir, 'data'),
        ADMIN_PASSWORD: 'crash-admin-1',
        RATE_LIMIT: '1000000000',
        // Each sync takes 300 ms more: a kill falls among unsynced writes more often.
        ...(shim === null ? {} : { LD_PRELOAD: shim.path, SHIM_UNDO: undo, SHIM_CONTROL: control }),
      };
      if (shim !== null) writeFileSync(control, 'slow-sync');
      let takenBack = 0;
      const acked: Acknowledged = { tickets: new Map(), messages: new Set(), files: new Map() };
      let token = '';
      let customerId = 0;
      const failure = (what: string): string => `${what} (CRASH_SEED=${String(seed)})`;
      const writes: number[] = [];

      for (let round = 0; round <= kills; round += 1) {
        child = await startMain(env, 30_000);
        const running = child;
        if (round === 0) token = await adminToken(running, env.ADMIN_PASSWORD);
        const call = (method: string, path: string, body?: unknown): Promise<ChildAnswer> =>
          callAs(running, token, method, path, body).catch((e: unknown) => {
            // Said with what the service printed, so that a failing run tells why.
            throw new Error(
              `${method} ${path} in round ${String(round)}: ${(e as Error).message}; the service ` +
                `${running.hasExited() ? 'had exited' : 'was running'}; its output ends: ` +
                `${running.stderr().slice(-1500)} ${running.stdout().slice(-1500)}`,
            );
          });
        if (round === 0) {
          const customer = await call('POST', '/v1/users', {
            name: 'Crash Customer',
            email: 'crash@example.com',
            role: 'customer',
            password: 'crash-password-1',
          });
          customerId = (customer.json as { id: number }).id;
        }

        // The feed: seqs 1..newest without a gap; every ticket.created names a ticket that exists, and every ticket has one.
        const created = new Set<number>();
        let after = 0;
        for (;;) {
          const page = await call('GET', `/v1/events?after=${String(after)}&per_page=100`);
          const events = page.json as { seq: number; type: string; resource: { id: number } }[];
          if (events.length === 0) break;
          for (const e of events) {
            expect(e.seq, failure(`the feed after seq ${String(after)}`)).to.equal(after + 1);
            after = e.seq;
            if (e.type === 'ticket.created') created.add(e.resource.id);
          }
        }
        // Every ticket is listed with its subject; every acknowledged write is there, as acknowledged (or newer).
        const listed = new Map<number, string>();
        for (let page = 1; ; page += 1) {
          const list = await call('GET', `/v1/tickets?sort=id&per_page=100&page=${String(page)}`);
          const items = list.json as { id: number; subject: string }[];
          for (const t of items) listed.set(t.id, t.subject);
          if (items.length < 100) break;
        }
        expect([...listed.keys()], failure('tickets and their ticket.created events')).to.deep.equal(
          [...created].sort((a, b) => a - b),
        );
        for (const [id, t] of acked.tickets) {
          expect(listed.has(id), failure(`ticket ${String(id)} after round ${String(round)}`)).to.equal(true);
          const now = listed.get(id) ?? '';
          expect(
            [t.subject, t.inFlight],
            failure(`ticket ${String(id)}'s subject after round ${String(round)}`),
          ).to.include(now);
          // What the restart holds is the truth from here on.
          t.subject = now;
          t.inFlight = null;
        }
        const byTicket = new Map<string, number[]>();
        for (const key of acked.messages) {
          const [ticket = '', number = ''] = key.split('/');
          byTicket.set(ticket, [...(byTicket.get(ticket) ?? []), Number(number)]);
        }
        for (const [ticket, numbers] of byTicket) {
          const kept = new Set<number>();
          for (let page = 1; ; page += 1) {
            const list = await call('GET', `/v1/tickets/${ticket}/messages?per_page=100&page=${String(page)}`);
            const items = list.json as { id: number }[];
            for (const m of items) kept.add(m.id);
            if (items.length < 100) break;
          }
          for (const n of numbers)
            expect(kept.has(n), failure(`message ${ticket}/${String(n)} after round ${String(round)}`)).to.equal(true);
        }
        // Every acknowledged file's bytes are there; every file the store names (up to the highest id
        // seen) has its bytes, with the SHA-256 its record says.
        const highest = Math.max(0, ...acked.files.keys()) + 6 * 2;
        for (let id = 1; id <= highest; id += 1) {
          const meta = await call('GET', `/v1/attachments/${String(id)}`);
          if (acked.files.has(id))
            expect(meta.status, failure(`file ${String(id)} after round ${String(round)}`)).to.equal(200);
          if (meta.status !== 200) continue;
          const recorded = (meta.json as { sha256: string }).sha256;
          if (acked.files.has(id))
            expect(recorded, failure(`file ${String(id)}'s record`)).to.equal(acked.files.get(id));
          const bytes = await call('GET', `/v1/attachments/${String(id)}/content`);
          expect([bytes.status, sha256(bytes.text)], failure(`file ${String(id)}'s bytes`)).to.deep.equal([
            200,
            recorded,
          ]);
        }
        writes.push(acked.tickets.size + acked.messages.size + acked.files.size);

        if (round === kills) {
          await running.stop();
          // The kills must have fallen among writes, or this proves nothing.
          expect(writes.at(-1) ?? 0, failure('acknowledged writes in all')).to.be.at.least(kills * 3);
          // The power cuts must have taken back unsynced writes, or they were mere kills.
          if (shim !== null) {
            console.log(`      power cuts took back ${String(takenBack)} unsynced writes of the store file`);
            expect(takenBack, failure('unsynced writes taken back')).to.be.greaterThan(0);
          }
          break;
        }
        // Concurrent writers until the kill, which comes at a random moment.
        let killed = false;
        const writer = async (w: number): Promise<void> => {
          for (let i = 0; !killed; i += 1) {
            try {
              const kind = next();
              const ids = [...acked.tickets.keys()];
              const own = ids.filter((id) => acked.tickets.get(id)?.owner === w);
              if (kind < 0.5 || own.length === 0) {
                const subject = `round ${String(round)} writer ${String(w)} #${String(i)}`;
                const a = await call('POST', '/v1/tickets', { subject, customer_id: customerId });
                if (a.status === 201)
                  acked.tickets.set((a.json as { id: number }).id, { subject, owner: w, inFlight: null });
              } else if (kind < 0.75) {
                const id = own[Math.floor(next() * own.length)] ?? 0;
                const t = acked.tickets.get(id);
                const subject = `edited in round ${String(round)} by ${String(w)} #${String(i)}`;
                if (t !== undefined) t.inFlight = subject;
                const a = await call('PATCH', `/v1/tickets/${String(id)}`, { subject });
                if (a.status === 200 && t !== undefined) {
                  t.subject = subject;
                  t.inFlight = null;
                }
              } else if (kind < 0.88) {
                const id = ids[Math.floor(next() * ids.length)] ?? 0;
                const a = await call('POST', `/v1/tickets/${String(id)}/messages`, { body: `note ${String(i)}` });
                if (a.status === 201) acked.messages.add(`${String(id)}/${String((a.json as { id: number }).id)}`);
              } else {
                // An upload (ASCII text, 1-300 KiB), attached to a new message two times in three.
                const text = `round ${String(round)} writer ${String(w)} #${String(i)} `.repeat(
                  1 + Math.floor(next() * 8000),
                );
                const up = await running.request('POST', `/v1/uploads?filename=w${String(w)}.txt`, {
                  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
                  body: text,
                });
                if (up.status !== 201) continue;
                const upload = (up.json as { id: number }).id;
                acked.files.set(upload, sha256(text));
                if (next() < 0.33) continue;
                const id = ids[Math.floor(next() * ids.length)] ?? 0;
                const a = await call('POST', `/v1/tickets/${String(id)}/messages`, {
                  body: 'file',
                  attachment_ids: [upload],
                });
                if (a.status === 201) acked.messages.add(`${String(id)}/${String((a.json as { id: number }).id)}`);
              }
            } catch {
              // The connection died with the process: this write was not acknowledged.
              return;
            }
          }
        };
        const writers = Array.from({ length: 6 }, (_, w) => writer(w));
        // The kill falls among writes: after a few were answered in this round, at a random moment.
        const before = acked.tickets.size + acked.messages.size;
        while (acked.tickets.size + acked.messages.size < before + 3) await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, Math.floor(next() * 300)));
        running.proc.kill('SIGKILL');
        killed = true;
        await running.exited;
        await Promise.all(writers);
        // A power cut: what was written but not yet synced never reached the disk.
        if (shim !== null) takenBack += dropUnsynced(undo, join(dir, 'data', 'store.lmdb'));
      }
    });
  });
