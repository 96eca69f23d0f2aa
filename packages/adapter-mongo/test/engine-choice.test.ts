import { expect } from 'chai';
import {
  divergenceOf,
  documentDbImage,
  engineSources,
  mongoImage,
  resolveSource,
  type EngineSource,
  type EngineWorld,
} from './support/engine-choice.js';

// The decision that picks the real-server suites' engines, with a fake world: no machine of
// this project has a container runtime, so this is as far as the Testcontainers path is
// proven here (docs/mongodb.md says so).

type Container = Extract<EngineSource, { kind: 'container' }>;

const fakeWorld = (options: { runtime?: string | null; standalone?: string[]; failing?: string[] } = {}) => {
  const calls = { runtime: 0, started: [] as string[], stopped: [] as string[] };
  const world: EngineWorld = {
    runtime: () => {
      calls.runtime += 1;
      return Promise.resolve(options.runtime ?? null);
    },
    startContainer: (source: Container) => {
      if (options.failing?.includes(source.image) === true)
        return Promise.reject(new Error('pull access denied\nmore'));
      calls.started.push(source.image);
      const url = `mongodb://container-of-${source.engine}/`;
      return Promise.resolve({
        url,
        stop: () => {
          calls.stopped.push(source.image);
          return Promise.resolve();
        },
      });
    },
    refusal: (url) =>
      Promise.resolve(options.standalone?.some((e) => url.includes(e)) === true ? `${url} is a standalone` : null),
  };
  return { world, calls };
};

const resolveAll = (sources: EngineSource[], world: EngineWorld) =>
  Promise.all(sources.map((s) => resolveSource(s, world)));

describe('the real-server suites choose their engines', () => {
  it('MONGO_URL set: that server only, and no container runtime is asked even when one answers', async () => {
    const sources = engineSources({ MONGO_URL: 'mongodb://db.example:27017/?replicaSet=rs0' });
    expect(sources).to.deep.equal([
      { kind: 'url', name: 'MONGO_URL', url: 'mongodb://db.example:27017/?replicaSet=rs0' },
    ]);
    const { world, calls } = fakeWorld();
    const [r] = await resolveAll(sources, world);
    expect(r).to.include({ available: true, url: 'mongodb://db.example:27017/?replicaSet=rs0', source: 'MONGO_URL' });
    expect(calls).to.deep.equal({ runtime: 0, started: [], stopped: [] });
  });

  it('no MONGO_URL and a container runtime answers: mongo:7 (a replica set) and DocumentDB, both started', async () => {
    const sources = engineSources({ MONGO_URL: '' });
    expect(sources.map((s) => (s.kind === 'container' ? [s.engine, s.image] : s.kind))).to.deep.equal([
      ['mongo', mongoImage],
      ['documentdb', documentDbImage],
    ]);
    expect(mongoImage).to.equal('mongo:7');
    const { world, calls } = fakeWorld();
    const resolved = await resolveAll(sources, world);
    expect(resolved.map((r) => r.available)).to.deep.equal([true, true]);
    expect(calls.started).to.deep.equal([mongoImage, documentDbImage]);
    for (const r of resolved) if (r.available) await r.stop();
    expect(calls.stopped).to.deep.equal([mongoImage, documentDbImage]);
  });

  it("neither MONGO_URL nor a container runtime: every engine NOT RUN, with the runtime's reason, nothing started", async () => {
    const { world, calls } = fakeWorld({ runtime: 'Could not find a working container runtime strategy' });
    const resolved = await resolveAll(engineSources({}), world);
    expect(resolved).to.have.length(2);
    for (const r of resolved) {
      expect(r.available).to.equal(false);
      if (!r.available)
        expect(r.reason).to.equal(
          'MONGO_URL is not set and no container runtime answered (Could not find a working container runtime strategy)',
        );
    }
    expect(calls.started).to.deep.equal([]);
  });

  it('DOCUMENTDB_IMAGE names another image, or none to leave that engine out', () => {
    expect(engineSources({ DOCUMENTDB_IMAGE: 'documentdb-local:0.108' }).map((s) => s.name)).to.deep.equal([
      'mongo:7 (Testcontainers)',
      'DocumentDB (Testcontainers, documentdb-local:0.108)',
    ]);
    expect(engineSources({ DOCUMENTDB_IMAGE: 'none' }).map((s) => s.name)).to.deep.equal(['mongo:7 (Testcontainers)']);
  });

  it('a container that fails to start, or serves a standalone, is NOT RUN with its cause (the standalone stopped again)', async () => {
    const [mongo, documentDb] = engineSources({}) as [Container, Container];
    const failing = fakeWorld({ failing: [mongoImage] });
    const r1 = await resolveSource(mongo, failing.world);
    expect(r1).to.deep.equal({
      available: false,
      reason: 'Testcontainers could not start mongo:7 (pull access denied)',
    });
    const standalone = fakeWorld({ standalone: ['documentdb'] });
    const r2 = await resolveSource(documentDb, standalone.world);
    expect(r2).to.deep.equal({ available: false, reason: 'mongodb://container-of-documentdb/ is a standalone' });
    expect(standalone.calls.stopped).to.deep.equal([documentDbImage]);
  });

  it('MONGO_URL naming a standalone: NOT RUN with the reason, no container tried instead', async () => {
    const { world, calls } = fakeWorld({ standalone: ['solo'] });
    const [r] = await resolveAll(engineSources({ MONGO_URL: 'mongodb://solo:27017/' }), world);
    expect(r).to.deep.equal({ available: false, reason: 'mongodb://solo:27017/ is a standalone' });
    expect(calls.runtime).to.equal(0);
  });

  it('a test that meets a listed DocumentDB divergence is named with it on a DocumentDB engine only, unless DOCUMENTDB_DIVERGENCES=run', () => {
    const title = (engine: string) =>
      `MongoDB adapter on a real server (${engine}) queries use their indexes {"deleted":false}: every planned query of 28 sorts`;
    expect(divergenceOf(title('DocumentDB (Testcontainers, x)'), {})).to.match(/^D4/);
    expect(divergenceOf(title('MONGO_URL, DocumentDB'), {})).to.match(/^D4/);
    expect(
      divergenceOf(
        'x (MONGO_URL, DocumentDB) a ticket and its event are committed by one transaction (the change stream shows one lsid and txnNumber for both)',
        {},
      ),
    ).to.match(/^D2/);
    expect(divergenceOf(title('mongo:7 (Testcontainers)'), {})).to.equal(null);
    expect(divergenceOf(title('MONGO_URL'), {})).to.equal(null);
    expect(divergenceOf(title('MONGO_URL, DocumentDB'), { DOCUMENTDB_DIVERGENCES: 'run' })).to.equal(null);
    expect(divergenceOf('MongoDB: x (MONGO_URL, DocumentDB) a stale versioned write changes nothing', {})).to.equal(
      null,
    );
    // D3 (counters created by concurrent upserts) is fixed in the adapter: its tests run there again.
    for (const fixed of [
      'MongoDB: RateLimitCounter contract is atomic: 50 concurrent hits count 1 to 50',
      'MongoDB: IdSequence contract never repeats a value: 100 concurrent calls give 1 to 100',
      'concurrency across processes (two clients on one database) ids are never repeated under concurrent writers',
      'concurrency across processes (two clients on one database) rate-limit hits are counted atomically by all processes',
    ])
      expect(divergenceOf(`x (MONGO_URL, DocumentDB) ${fixed}`, {}), fixed).to.equal(null);
    expect(engineSources({ MONGO_URL: 'mongodb://h/', MONGO_URL_ENGINE: 'documentdb' })[0]?.name).to.equal(
      'MONGO_URL, DocumentDB',
    );
  });
});
