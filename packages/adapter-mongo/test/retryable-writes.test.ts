import { StoreUnavailableError, StoreWriteNotConfirmedError } from '@support/application';
import { expect } from 'chai';
import { MongoNetworkError, MongoServerError, type Document } from 'mongodb';
import { storeFailureOf } from '../src/errors.js';
import { createMongoStore, type MongoStore } from '../src/index.js';
import { aToken } from './support/builders.js';
import { fakeMongod, type FakeMongod } from './support/fake-mongod.js';
import { measure } from './support/outage.js';

// A write outside a transaction that fails with RetryableWriteError has been sent twice by
// the driver (its one retry), and the first attempt's answer may have been lost after the
// server applied it: the client must hear "may have been applied" (500 50002), never "nothing
// written" (503), when the write's effect is the client's. A read, or a bookkeeping write the
// client never sees (a rate-limit count), with the same error stays "unavailable".

const notPrimary = (labels: string[]): Document => ({
  ok: 0,
  code: 10107,
  codeName: 'NotWritablePrimary',
  errmsg: 'fake mongod: not primary',
  errorLabels: labels,
});

describe('RetryableWriteError outside a transaction', () => {
  describe('by its labels', () => {
    const labelled = (labels: string[]): MongoServerError =>
      new MongoServerError({ message: 'x', code: 10107, codeName: 'NotWritablePrimary', errorLabels: labels });

    it("a write's: may have been applied ('write-not-confirmed'); a read's: 'unavailable'", () => {
      expect(storeFailureOf(labelled(['RetryableWriteError']), 'write')).to.equal('write-not-confirmed');
      expect(storeFailureOf(labelled(['RetryableWriteError']), 'read')).to.equal('unavailable');
      expect(storeFailureOf(labelled(['RetryableWriteError']))).to.equal('unavailable');
      const lost = new MongoNetworkError('connection reset');
      lost.addErrorLabel('RetryableWriteError');
      expect(storeFailureOf(lost, 'write'), 'a lost answer').to.equal('write-not-confirmed');
    });

    it("no attempt wrote (NoWritesPerformed), or a transaction's (TransientTransactionError: aborted whole): 'unavailable'", () => {
      expect(storeFailureOf(labelled(['RetryableWriteError', 'NoWritesPerformed']), 'write')).to.equal('unavailable');
      expect(storeFailureOf(labelled(['RetryableWriteError', 'TransientTransactionError']), 'write')).to.equal(
        'unavailable',
      );
      expect(storeFailureOf(labelled([]), 'write'), 'not retried, refused: nothing written').to.equal('unavailable');
    });
  });

  describe('through the real driver, against a fake mongod answering "not primary" twice', function () {
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
    });
    after(async () => {
      await store.close();
      await fake.stop();
    });

    const sent = (command: string): number => fake.received.filter((c) => c === command).length;

    it('using a refresh token (findAndModify): sent twice, then "write not confirmed" (a retry would look like a replay)', async () => {
      fake.answers.set('findAndModify', notPrimary(['RetryableWriteError']));
      const before = sent('findAndModify');
      const { error } = await measure(() => store.tokens.consume('a'.repeat(64), Date.now()));
      expect(sent('findAndModify') - before, 'the driver retried once').to.equal(2);
      expect(error).to.be.instanceOf(StoreWriteNotConfirmedError);
      expect((error as Error).cause).to.be.instanceOf(MongoServerError);
    });

    it('a rate-limit count (the same command, a write the client never sees): "unavailable", 503', async () => {
      fake.answers.set('findAndModify', notPrimary(['RetryableWriteError']));
      expect((await measure(() => store.rateLimits.hit('k', 0, 60_000))).error).to.be.instanceOf(StoreUnavailableError);
    });

    it('the same error answering a read: "unavailable"', async () => {
      fake.answers.set('find', notPrimary(['RetryableWriteError']));
      expect((await measure(() => store.tokens.find('a'.repeat(64), Date.now()))).error).to.be.instanceOf(
        StoreUnavailableError,
      );
    });

    it('saving a token (a write nobody was handed yet): "unavailable"', async () => {
      fake.answers.set('update', notPrimary(['RetryableWriteError']));
      expect((await measure(() => store.tokens.save(aToken()))).error).to.be.instanceOf(StoreUnavailableError);
    });
  });
});
