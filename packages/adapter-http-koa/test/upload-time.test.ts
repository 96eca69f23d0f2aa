import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { uploadPacer } from '../src/conventions/upload-pacing.js';
import { HttpProblem } from '../src/errors/http-problem.js';
import { receiptClock, watchReceipt, type ReceiptClock } from '../src/node/request-receipt.js';

// The time a request may take to arrive (node/request-receipt.ts) and what uploads do with it
// (conventions/upload-pacing.ts): the clock stops while an upload waits for its turn, its bytes
// move the deadline on, and an upload that waited its whole allowance is a 503 with Retry-After.

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A clock that notes what the pacer did to it. */
const notingClock = () => {
  const calls: string[] = [];
  let earned = 0;
  const clock: ReceiptClock = {
    pause: () => calls.push('pause'),
    resume: () => calls.push('resume'),
    extend: (ms) => (earned += ms),
    expired: () => false,
  };
  return { clock, calls, earned: () => earned };
};

/** A request and its response, as far as watchReceipt looks at them. */
const exchange = () => {
  const req = Object.assign(new EventEmitter(), {
    complete: false,
    headers: { 'content-length': '100' },
  }) as unknown as IncomingMessage & { complete: boolean };
  const res = new EventEmitter() as unknown as ServerResponse;
  return { req, res };
};

describe('request receipt: REQUEST_TIMEOUT_S and what uploads earn or wait', () => {
  it('answers a request late once its time is up, and not one that arrived', async () => {
    const late: string[] = [];
    const a = exchange();
    const b = exchange();
    watchReceipt(a.req, a.res, 40, () => late.push('a'));
    watchReceipt(b.req, b.res, 40, () => late.push('b'));
    b.req.complete = true;
    await sleep(120);
    expect(late).to.deep.equal(['a']);
    expect(receiptClock(a.req)?.expired()).to.equal(true);
    expect(receiptClock(b.req)?.expired()).to.equal(false);
  });

  it('does not count a pause, and moves the deadline by what was earned', async () => {
    const late: number[] = [];
    const started = performance.now();
    const { req, res } = exchange();
    watchReceipt(req, res, 100, () => late.push(performance.now() - started));
    const clock = receiptClock(req);
    clock?.pause();
    await sleep(200);
    expect(late, 'paused past its deadline').to.deep.equal([]);
    clock?.resume();
    clock?.extend(400);
    // Due at about 100 + 200 (paused) + 400 (earned) = 700 ms from the start.
    await sleep(150);
    expect(late, 'the pause and the earned time added').to.deep.equal([]);
    while (late.length === 0 && performance.now() - started < 5_000) await sleep(20);
    expect(late).to.have.length(1);
    expect(late[0]).to.be.above(690);
  });

  it('does not watch a request without a body (it arrived with its header fields)', () => {
    const { req, res } = exchange();
    req.headers = {};
    watchReceipt(req, res, 30, () => undefined);
    expect(receiptClock(req)).to.equal(null);
  });

  it('stops watching once the answer is over', async () => {
    const late: string[] = [];
    const { req, res } = exchange();
    watchReceipt(req, res, 30, () => late.push('late'));
    res.emit('close');
    await sleep(80);
    expect(late).to.deep.equal([]);
  });

  it('answers 503 (50305) with Retry-After to an upload that waited its whole allowance, its clock stopped meanwhile', async () => {
    const pacer = uploadPacer({ concurrent: 1, waitMs: 80 });
    const holder = new PassThrough();
    holder.write(Buffer.alloc(10, 1));
    const held = pacer.paced(holder)[Symbol.asyncIterator]();
    await held.next();
    // The holder's first chunk is being handled (not read on): it holds the one slot.
    const waiter = new PassThrough();
    waiter.end(Buffer.alloc(10, 2));
    const { clock, calls } = notingClock();
    const started = performance.now();
    const failure = await (async () => {
      try {
        for await (const c of pacer.paced(waiter, clock)) expect(c).to.equal(null, 'a chunk read while waiting');
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(failure).to.be.instanceOf(HttpProblem);
    const p = failure as HttpProblem;
    expect(p.kind.code).to.equal(50305);
    expect(p.extras.headers).to.deep.equal({ 'Retry-After': '10', Connection: 'close' });
    expect(performance.now() - started).to.be.at.least(75);
    expect(calls).to.deep.equal(['pause', 'resume']);
    expect(pacer.usage()).to.deep.equal({ held: 1, waiting: 0 });
    holder.end();
    let r = await held.next();
    while (r.done !== true) r = await held.next();
    expect(pacer.usage()).to.deep.equal({ held: 0, waiting: 0 });
  });

  it('moves the clock on by each chunk received at UPLOAD_MIN_BYTES_PER_S', async () => {
    const pacer = uploadPacer({ minBytesPerSecond: 1024 });
    const body = new PassThrough();
    body.write(Buffer.alloc(2048));
    body.end(Buffer.alloc(512));
    const { clock, earned } = notingClock();
    let total = 0;
    for await (const c of pacer.paced(body, clock)) total += c.length;
    expect(total).to.equal(2560);
    expect(earned()).to.equal(2500);
  });
});
