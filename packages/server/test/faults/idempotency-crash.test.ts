import { expect } from 'chai';
import { join } from 'node:path';
import type { ChildAnswer } from '../server/child.js';
import { allTickets, exitWithin, faultEnv, newCustomer, serviceOn, type Service } from './service.js';
import { tempDirEachTest } from '../support/temp-dir.js';

// Idempotency-Key exactly once across a crash (issue 32 item 5), in plain `node` processes on
// the embedded store. CRASH_BEFORE_KEEPING (tests only) makes the service SIGKILL itself once
// the keyed request has run (its ticket durable) and before its answer is kept: the one moment
// a retry could run the POST a second time. After the restart the retry must never create a
// second ticket. The claim was marked "written" in the ticket's own commit, so the retry gets
// 409 (40903: done, its answer lost) at once (a claim found at a start is a dead process's), for
// as long as the key is kept. Seen failing with the guard taken out (the code before it): the
// retry, once the claim's lease had run out, answered 201 and made a second "Crashed" ticket.

const keyed = (s: Service, key: string, body: unknown): Promise<ChildAnswer> =>
  s.started.request('POST', '/v1/tickets', {
    headers: {
      Authorization: `Bearer ${s.token}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': key,
    },
    body: JSON.stringify(body),
  });

describe('faults: a crash between a keyed POST and the keeping of its answer (plain node processes)', function () {
  this.timeout(120_000);
  let dir: string;
  tempDirEachTest('support-idempotency-crash-', (made) => (dir = made));

  it('the retry after the restart never runs the POST again: one ticket, answered 409 40903, never a second 201', async () => {
    const data = join(dir, 'data');
    const env = faultEnv(data);
    const first = await serviceOn({ ...env, CRASH_BEFORE_KEEPING: 'crash-key-1' });
    const customerId = await newCustomer(first);
    const body = { subject: 'Crashed', customer_id: customerId };
    // Another key is kept and replayed as ever.
    const kept = await keyed(first, 'kept-key-1', { subject: 'Kept', customer_id: customerId });
    expect(kept.status, kept.text).to.equal(201);
    const crashed = await keyed(first, 'crash-key-1', body).then(
      () => 'answered',
      () => 'no answer',
    );
    expect(crashed).to.equal('no answer');
    expect((await exitWithin(first.started, 10_000)).signal).to.equal('SIGKILL');

    const second = await serviceOn(env);
    try {
      // The write was durable before the crash: it is there, once.
      const before = [...(await allTickets(second)).values()];
      expect(before).to.deep.equal(['Kept', 'Crashed']);
      // At once: the claim's process is gone, so its lease (60 s) is not waited out.
      const retry = await keyed(second, 'crash-key-1', body);
      expect(retry.status, retry.text).to.equal(409);
      expect((retry.json as { code: number }).code).to.equal(40903);
      expect((retry.json as { description: string }).description).to.match(/not run again under this key/);
      expect(retry.headers['retry-after']).to.equal(undefined);
      // Still so on a later retry; the kept key still replays.
      expect((await keyed(second, 'crash-key-1', body)).status).to.equal(409);
      const replay = await keyed(second, 'kept-key-1', { subject: 'Kept', customer_id: customerId });
      expect([replay.status, replay.headers['idempotent-replayed']]).to.deep.equal([201, 'true']);
      expect([...(await allTickets(second)).values()]).to.deep.equal(['Kept', 'Crashed']);
      // A new key runs it again, as the answer says.
      expect((await keyed(second, 'crash-key-2', body)).status).to.equal(201);
      expect([...(await allTickets(second)).values()]).to.deep.equal(['Kept', 'Crashed', 'Crashed']);
    } finally {
      await second.started.stop();
    }
  });
});
