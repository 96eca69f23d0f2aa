import { StoreTimeLimitError, StoreUnavailableError, StoreWriteNotConfirmedError } from '@support/application';
import type { UserId } from '@support/domain';
import { expect } from 'chai';
import { MongoServerError, type Document } from 'mongodb';
import { createMongoStore, type MongoStore } from '../src/index.js';
import { aTicket, aToken, aUser } from './support/builders.js';
import { fakeMongod, type FakeMongod } from './support/fake-mongod.js';
import { measure, silentListener } from './support/outage.js';

// Every classification is made on an error the real driver raised: from a closed port, a
// silent server, or a fake mongod answering the command with the error document a mongod
// sends for that code. The driver's own retries happen on the way (a retryable code is
// sent twice), so the table also shows what reaches the adapter after them.

type Expected = 'unavailable' | 'write not confirmed' | 'time limit' | 'a bug (propagates)';

const classOf: Record<Exclude<Expected, 'a bug (propagates)'>, new (...args: never[]) => Error> = {
  unavailable: StoreUnavailableError,
  'write not confirmed': StoreWriteNotConfirmedError,
  'time limit': StoreTimeLimitError,
};

const errorDocument = (code: number, codeName: string): Document => ({
  ok: 0,
  code,
  codeName,
  errmsg: `fake mongod says ${codeName}`,
});

/** Server codes, by what the client should do about them. */
const serverCodes: ReadonlyArray<readonly [number, string, Expected]> = [
  [6, 'HostUnreachable', 'unavailable'],
  [7, 'HostNotFound', 'unavailable'],
  [89, 'NetworkTimeout', 'unavailable'],
  [91, 'ShutdownInProgress', 'unavailable'],
  [133, 'FailedToSatisfyReadPreference', 'unavailable'],
  [134, 'ReadConcernMajorityNotAvailableYet', 'unavailable'],
  [189, 'PrimarySteppedDown', 'unavailable'],
  [262, 'ExceededTimeLimit', 'unavailable'],
  [9001, 'SocketException', 'unavailable'],
  [10058, 'LegacyNotPrimary', 'unavailable'],
  [10107, 'NotWritablePrimary', 'unavailable'],
  [11600, 'InterruptedAtShutdown', 'unavailable'],
  [11602, 'InterruptedDueToReplStateChange', 'unavailable'],
  [13435, 'NotPrimaryNoSecondaryOk', 'unavailable'],
  [13436, 'NotPrimaryOrSecondary', 'unavailable'],
  [64, 'WriteConcernFailed', 'write not confirmed'],
  [50, 'MaxTimeMSExpired', 'time limit'],
  [2, 'BadValue', 'a bug (propagates)'],
  [13, 'Unauthorized', 'a bug (propagates)'],
  [11000, 'DuplicateKey', 'a bug (propagates)'],
];

const expectClassified = (error: unknown, expected: Expected, code: number): void => {
  if (expected === 'a bug (propagates)') {
    expect(error, 'propagates as the driver raised it').to.be.instanceOf(MongoServerError);
    expect((error as MongoServerError).code).to.equal(code);
    return;
  }
  expect(error).to.be.instanceOf(classOf[expected]);
  expect((error as Error).message, 'no driver text').to.not.match(/fake|mongo|code/i);
  expect((error as Error).cause).to.be.instanceOf(Error);
};

describe('error classification, from errors the real driver raises', function () {
  this.timeout(30_000);
  let fake: FakeMongod;
  let store: MongoStore;
  before(async () => {
    fake = await fakeMongod();
    store = createMongoStore({ url: fake.url, serverSelectionTimeoutMS: 1000, operationTimeoutMS: 1000 });
    await store.ensureIndexes();
  });
  afterEach(() => {
    fake.answers.clear();
    fake.answerTimes.clear();
  });
  after(async () => {
    await store.close();
    await fake.stop();
  });

  const sentTimes = async (
    command: string,
    call: () => Promise<unknown>,
  ): Promise<{ error: unknown; sent: number }> => {
    const before = fake.received.filter((c) => c === command).length;
    const { error } = await measure(call);
    return { error, sent: fake.received.filter((c) => c === command).length - before };
  };

  for (const [code, codeName, expected] of serverCodes) {
    it(`${code} ${codeName} answering a read: ${expected}`, async () => {
      fake.answers.set('find', errorDocument(code, codeName));
      const { error, sent } = await sentTimes('find', () => store.users.findById(1 as UserId));
      expectClassified(error, expected, code);
      expect(sent, 'sent once, or twice when the driver retries the read').to.be.within(1, 2);
    });
    it(`${code} ${codeName} answering a write: ${expected}`, async () => {
      fake.answers.set('insert', errorDocument(code, codeName));
      const { error } = await sentTimes('insert', () => store.tickets.insert(aTicket()));
      expectClassified(error, expected, code);
    });
  }

  it('the driver retries a retryable read once (134) and a plain error never (2)', async () => {
    fake.answers.set('find', errorDocument(134, 'ReadConcernMajorityNotAvailableYet'));
    expect((await sentTimes('find', () => store.users.findById(1 as UserId))).sent).to.equal(2);
    fake.answers.set('find', errorDocument(2, 'BadValue'));
    expect((await sentTimes('find', () => store.users.findById(1 as UserId))).sent).to.equal(1);
  });

  describe('a write-concern error: the primary applied the write, the majority did not confirm it', () => {
    const writeConcernReply = (code: number, codeName: string, labels: string[] = []): Document => ({
      n: 1,
      nModified: 1,
      ok: 1,
      writeConcernError: {
        code,
        codeName,
        errmsg: `fake mongod: ${codeName}`,
        ...(code === 64 ? { errInfo: { wtimeout: true } } : {}),
      },
      ...(labels.length > 0 ? { errorLabels: labels } : {}),
    });
    // A write of a ticket, message, user or group is a transaction: the majority confirms its
    // commit. The other writes (tokens, counters) are single commands confirmed one by one.
    const cases: ReadonlyArray<readonly [string, string, () => Promise<unknown>]> = [
      ['commitTransaction', "tickets.insert (its transaction's commit)", () => store.tickets.insert(aTicket())],
      [
        'commitTransaction',
        "tickets.update (a versioned replace, its transaction's commit)",
        () => store.tickets.update(aTicket({ version: 2 }), 1),
      ],
      ['commitTransaction', "users.delete (its transaction's commit)", () => store.users.delete(7 as UserId, 1)],
      ['findAndModify', 'ids.next (findOneAndUpdate)', () => store.ids.next('ticket')],
      ['update', 'tokens.save (an upsert)', () => store.tokens.save(aToken())],
      ['delete', 'tokens.revoke (a delete)', () => store.tokens.revoke('h')],
    ];
    for (const [command, what, call] of cases) {
      it(`${what}: wtimeout (64) is "write not confirmed", never "unavailable"`, async () => {
        fake.answers.set(command, writeConcernReply(64, 'WriteConcernFailed'));
        expectClassified((await measure(call)).error, 'write not confirmed', 64);
      });
    }
    it('even with a retryable code and label (91 ShutdownInProgress): the driver retries, then it is "write not confirmed"', async () => {
      fake.answers.set('update', writeConcernReply(91, 'ShutdownInProgress', ['RetryableWriteError']));
      const { error, sent } = await sentTimes('update', () => store.tokens.save(aToken()));
      expectClassified(error, 'write not confirmed', 91);
      expect(sent).to.equal(2);
    });
    it('a commit with the same answer: the driver re-sends the commit once, then the outcome is unknown, "write not confirmed" (never re-sent for minutes)', async () => {
      fake.answers.set('commitTransaction', writeConcernReply(91, 'ShutdownInProgress', ['RetryableWriteError']));
      const { error, sent } = await sentTimes('commitTransaction', () => store.tickets.insert(aTicket()));
      expectClassified(error, 'write not confirmed', 91);
      expect(sent).to.equal(2);
    });
    it('MaxTimeMSExpired while waiting for the majority (50 inside writeConcernError) is "write not confirmed" too', async () => {
      fake.answers.set('commitTransaction', writeConcernReply(50, 'MaxTimeMSExpired'));
      expectClassified((await measure(() => store.tickets.insert(aTicket()))).error, 'write not confirmed', 50);
    });
  });

  describe('transactions', () => {
    it('a write conflict that outlasts the retries (112, TransientTransactionError): "unavailable", nothing was written', async () => {
      fake.answers.set('insert', {
        ok: 0,
        code: 112,
        codeName: 'WriteConflict',
        errmsg: 'fake mongod: WriteConflict',
        errorLabels: ['TransientTransactionError'],
      });
      const { error, sent } = await sentTimes('insert', () => store.tickets.insert(aTicket()));
      expectClassified(error, 'unavailable', 112);
      expect(sent, 'run again while the retry window lasts').to.be.above(1);
      expect(fake.received, 'each failed run was aborted').to.include('abortTransaction');
    });
    // DocumentDB's gateway answers a conflict in a transaction without the label (D1 in docs/mongodb.md).
    for (const [code, codeName, errmsg] of [
      [112, 'SqlState(E55P03)', 'canceling statement due to lock timeout'],
      [16777220, 'DocumentDB error.', 'could not serialize access due to concurrent update'],
      [
        33685826,
        'DocumentDB error.',
        'current transaction is aborted, commands ignored until end of transaction block',
      ],
    ] as const)
      it(`a write conflict without the label (${String(code)} ${codeName}, as DocumentDB answers): run again the same, then "unavailable" (a bug before)`, async () => {
        fake.answers.set('insert', { ok: 0, code, codeName, errmsg });
        const { error, sent } = await sentTimes('insert', () => store.tickets.insert(aTicket()));
        expectClassified(error, 'unavailable', code);
        expect(sent, 'run again while the retry window lasts').to.be.above(1);
        expect(fake.received, 'each failed run was aborted').to.include('abortTransaction');
      });
    it('a transient commit failure (251 NoSuchTransaction after a failover) runs the whole transaction again', async () => {
      fake.answers.set('commitTransaction', {
        ok: 0,
        code: 251,
        codeName: 'NoSuchTransaction',
        errmsg: 'fake mongod: NoSuchTransaction',
        errorLabels: ['TransientTransactionError'],
      });
      fake.answerTimes.set('commitTransaction', 1);
      const inserts = fake.received.filter((c) => c === 'insert').length;
      const { error, sent } = await sentTimes('commitTransaction', () => store.tickets.insert(aTicket()));
      expect(error).to.equal(null);
      expect(sent, 'committed on the second run').to.equal(2);
      expect(
        fake.received.filter((c) => c === 'insert').length - inserts,
        'the ticket and its event, inserted in each run',
      ).to.equal(4);
    });
  });

  describe('duplicate keys (write errors 11000)', () => {
    const duplicate = (index: string, keyPattern: Document): Document => ({
      n: 0,
      ok: 1,
      writeErrors: [
        {
          index: 0,
          code: 11000,
          errmsg: `E11000 duplicate key error collection: fake.users index: ${index} dup key: { }`,
          keyPattern,
          keyValue: {},
        },
      ],
    });
    it('on the e-mail index: the expected result "email_taken"', async () => {
      fake.answers.set('insert', duplicate('users_email_unique', { emailKey: 1 }));
      expect(await store.users.insert(aUser())).to.equal('email_taken');
    });
    it('on _id: a bug, propagated as the driver raised it', async () => {
      fake.answers.set('insert', duplicate('_id_', { _id: 1 }));
      expectClassified((await measure(() => store.users.insert(aUser()))).error, 'a bug (propagates)', 11000);
    });
    // DocumentDB 0.108 (scripts/documentdb-run.mjs) words it so, with no keyPattern or keyValue.
    const worded = (index: string): Document => ({
      n: 0,
      ok: 1,
      writeErrors: [
        { index: 0, code: 11000, errmsg: `Duplicate key violation on the requested collection: Index '${index}'` },
      ],
    });
    it('named only in the message, in other words and without keyPattern: still "email_taken" (seen failing as a bug before)', async () => {
      fake.answers.set('insert', worded('users_email_unique'));
      expect(await store.users.insert(aUser())).to.equal('email_taken');
    });
    it('on _id, named only in the message: still a bug, and a longer name containing the index is not the index', async () => {
      fake.answers.set('insert', worded('_id_'));
      expectClassified((await measure(() => store.users.insert(aUser()))).error, 'a bug (propagates)', 11000);
      fake.answers.set('insert', worded('users_email_unique_old'));
      expectClassified((await measure(() => store.users.insert(aUser()))).error, 'a bug (propagates)', 11000);
    });
  });

  describe('no server at all', () => {
    it('a closed port: unavailable', async () => {
      const closed = createMongoStore({
        url: 'mongodb://127.0.0.1:1/x',
        serverSelectionTimeoutMS: 500,
        operationTimeoutMS: 500,
      });
      try {
        expectClassified((await measure(() => closed.users.findById(1 as UserId))).error, 'unavailable', 0);
      } finally {
        await closed.close();
      }
    });
    it('a server that accepts connections and never answers: unavailable', async () => {
      const silent = await silentListener();
      const store2 = createMongoStore({
        url: `mongodb://127.0.0.1:${silent.port}/x?directConnection=true`,
        serverSelectionTimeoutMS: 500,
        operationTimeoutMS: 500,
      });
      try {
        expectClassified((await measure(() => store2.users.findById(1 as UserId))).error, 'unavailable', 0);
      } finally {
        await store2.close();
        await silent.close();
      }
    });
  });
});
