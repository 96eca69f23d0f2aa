import { expect } from 'chai';
import { MongoServerError, type ClientSession } from 'mongodb';
import { mingoEngine, type Engine } from './support/mingo-engine.js';

// The engine's transactions themselves, before anything runs on them: what a transaction
// sees, when others see its writes, and who wins when two write one document. The adapter's
// change feed rests on exactly these behaviours (feed.test.ts, and the EventLog contract
// suite on the engine).

const begin = (engine: Engine): ClientSession => {
  const session = engine.ctx.sessions.startSession();
  session.startTransaction();
  return session;
};

const codeOf = async (p: Promise<unknown>): Promise<number | null> => {
  try {
    await p;
    return null;
  } catch (e) {
    expect(e).to.be.instanceOf(MongoServerError);
    return (e as MongoServerError).code as number;
  }
};

describe('the engine: sessions and transactions', () => {
  it('a transaction sees its own writes; nobody else does until it commits, then all of them at once', async () => {
    const engine = mingoEngine();
    const counters = engine.ctx.counters;
    const s = begin(engine);
    await counters.insertOne({ _id: 'a', seq: 1 }, { session: s });
    await counters.insertOne({ _id: 'b', seq: 2 }, { session: s });
    expect(await counters.countDocuments({}, { session: s })).to.equal(2);
    expect(await counters.countDocuments({}), 'outside: nothing yet').to.equal(0);
    await s.commitTransaction();
    expect((await counters.find({}).toArray()).map((d) => d._id)).to.deep.equal(['a', 'b']);
  });

  it('an aborted transaction leaves nothing, and an error inside one aborts it (the next operation: NoSuchTransaction)', async () => {
    const engine = mingoEngine();
    const { counters } = engine.ctx;
    await counters.insertOne({ _id: 'a', seq: 1 });
    const s = begin(engine);
    await counters.updateOne({ _id: 'a' }, { $inc: { seq: 1 } }, { session: s });
    await s.abortTransaction();
    expect((await counters.findOne({ _id: 'a' }))?.seq).to.equal(1);
    const t = begin(engine);
    await counters.insertOne({ _id: 'b', seq: 1 }, { session: t });
    expect(await codeOf(counters.insertOne({ _id: 'a', seq: 9 }, { session: t })), 'duplicate _id').to.equal(11000);
    expect(await codeOf(counters.findOne({ _id: 'b' }, { session: t })), 'the transaction is gone').to.equal(251);
    expect(await counters.countDocuments({})).to.equal(1);
  });

  it('reads one snapshot: a commit made after its first operation stays invisible to it', async () => {
    const engine = mingoEngine();
    const { counters } = engine.ctx;
    await counters.insertOne({ _id: 'a', seq: 1 });
    const s = begin(engine);
    expect((await counters.findOne({ _id: 'a' }, { session: s }))?.seq).to.equal(1);
    await counters.updateOne({ _id: 'a' }, { $set: { seq: 2 } });
    expect((await counters.findOne({ _id: 'a' }, { session: s }))?.seq, 'the snapshot').to.equal(1);
    await s.commitTransaction();
  });

  it('two transactions writing one document: the first writer wins, the second gets WriteConflict (TransientTransactionError) and is aborted', async () => {
    const engine = mingoEngine();
    const { counters } = engine.ctx;
    await counters.insertOne({ _id: 'events', seq: 0 });
    const first = begin(engine);
    const second = begin(engine);
    await counters.findOneAndUpdate({ _id: 'events' }, { $inc: { seq: 1 } }, { session: first });
    const conflict = await counters
      .findOneAndUpdate({ _id: 'events' }, { $inc: { seq: 1 } }, { session: second })
      .catch((e: unknown) => e);
    expect(conflict).to.be.instanceOf(MongoServerError);
    expect((conflict as MongoServerError).code).to.equal(112);
    expect((conflict as MongoServerError).hasErrorLabel('TransientTransactionError')).to.equal(true);
    await first.commitTransaction();
    expect((await counters.findOne({ _id: 'events' }))?.seq).to.equal(1);
    expect(engine.core.conflicts).to.equal(1);
  });

  it('a transaction whose snapshot predates a commit to the document conflicts even after that commit', async () => {
    const engine = mingoEngine();
    const { counters } = engine.ctx;
    await counters.insertOne({ _id: 'events', seq: 0 });
    const late = begin(engine);
    await counters.findOne({ _id: 'other' }, { session: late }); // the snapshot is taken here
    const early = begin(engine);
    await counters.updateOne({ _id: 'events' }, { $inc: { seq: 1 } }, { session: early });
    await early.commitTransaction();
    expect(await codeOf(counters.updateOne({ _id: 'events' }, { $inc: { seq: 1 } }, { session: late }))).to.equal(112);
  });

  it('two transactions inserting one unique key conflict; once one commits, the next sees a duplicate key', async () => {
    const engine = mingoEngine();
    const { users } = engine.ctx;
    const doc = (id: number) => ({ _id: id, emailKey: 'ada@example.com' }) as never;
    const a = begin(engine);
    const b = begin(engine);
    await users.insertOne(doc(1), { session: a });
    expect(await codeOf(users.insertOne(doc(2), { session: b }))).to.equal(112);
    await a.commitTransaction();
    const c = begin(engine);
    expect(await codeOf(users.insertOne(doc(3), { session: c }))).to.equal(11000);
  });

  it('a write outside any transaction to a document a transaction holds waits for it to end, then applies', async () => {
    const engine = mingoEngine();
    const { counters } = engine.ctx;
    await counters.insertOne({ _id: 'a', seq: 1 });
    const s = begin(engine);
    await counters.updateOne({ _id: 'a' }, { $set: { seq: 10 } }, { session: s });
    let applied = false;
    const outside = counters.updateOne({ _id: 'a' }, { $inc: { seq: 1 } }).then(() => {
      applied = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(applied, 'still waiting').to.equal(false);
    await s.commitTransaction();
    await outside;
    expect((await counters.findOne({ _id: 'a' }))?.seq).to.equal(11);
  });

  it('a commit fault: not applied (a failover, TransientTransactionError) leaves nothing; applied (a write-concern timeout) leaves everything', async () => {
    const engine = mingoEngine();
    const { counters } = engine.ctx;
    const label = (code: number, codeName: string, labels: string[]) =>
      new MongoServerError({ message: codeName, code, codeName, errorLabels: labels });
    engine.core.commitFaults.push({
      error: label(251, 'NoSuchTransaction', ['TransientTransactionError']),
      applied: false,
    });
    const s = begin(engine);
    await counters.insertOne({ _id: 'a', seq: 1 }, { session: s });
    expect(await codeOf(s.commitTransaction())).to.equal(251);
    expect(await counters.countDocuments({})).to.equal(0);
    engine.core.commitFaults.push({
      error: label(64, 'WriteConcernFailed', ['UnknownTransactionCommitResult']),
      applied: true,
    });
    const t = begin(engine);
    await counters.insertOne({ _id: 'a', seq: 1 }, { session: t });
    expect(await codeOf(t.commitTransaction())).to.equal(64);
    expect(await counters.countDocuments({})).to.equal(1);
  });
});
