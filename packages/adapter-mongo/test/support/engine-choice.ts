// Which MongoDB-wire engines the real-server suites run against, decided from the environment
// alone (tested on its own in engine-choice.test.ts, since no machine of this project has a
// container runtime):
//   - MONGO_URL set: that server, and nothing else (a contributor's own replica set, or the
//     DocumentDB or FerretDB that scripts/documentdb-run.mjs and ferretdb-run.mjs start);
//   - otherwise, where a container runtime answers (Testcontainers' own detection: DOCKER_HOST,
//     the Docker socket, Podman, ...): a `mongo:7` single-node replica set, and DocumentDB's
//     local image as a second engine (DOCUMENTDB_IMAGE=none leaves it out);
//   - otherwise none: every suite says it did NOT run, and why, and is pending, never passed.
// On a DocumentDB engine (its name says DocumentDB) the tests that meet a listed divergence
// (docs/mongodb.md, "DocumentDB") do not run, each saying which (divergenceOf below), unless
// DOCUMENTDB_DIVERGENCES=run: the rest must pass there.

export type EngineSource =
  | { readonly kind: 'url'; readonly name: string; readonly url: string }
  | {
      readonly kind: 'container';
      readonly engine: 'mongo' | 'documentdb';
      readonly name: string;
      readonly image: string;
    };

/** MongoDB 7 as the design card asks (a single-node replica set through @testcontainers/mongodb). */
export const mongoImage = 'mongo:7';
/** DocumentDB's local image (gateway and PostgreSQL in one container; its README's `docker run`). */
export const documentDbImage = 'ghcr.io/microsoft/documentdb/documentdb-local:latest';

type Env = Readonly<Record<string, string | undefined>>;

/** The engines to try, in order; containers are tried only if the runtime answers. */
export const engineSources = (env: Env): EngineSource[] => {
  const url = env['MONGO_URL'];
  // MONGO_URL_ENGINE=documentdb (scripts/documentdb-run.mjs sets it) names the engine behind the URL.
  if (url !== undefined && url !== '')
    return [
      { kind: 'url', name: env['MONGO_URL_ENGINE'] === 'documentdb' ? 'MONGO_URL, DocumentDB' : 'MONGO_URL', url },
    ];
  const documentDb = env['DOCUMENTDB_IMAGE'] ?? documentDbImage;
  return [
    { kind: 'container', engine: 'mongo', name: `${mongoImage} (Testcontainers)`, image: mongoImage },
    ...(documentDb === 'none'
      ? []
      : [
          {
            kind: 'container',
            engine: 'documentdb',
            name: `DocumentDB (Testcontainers, ${documentDb})`,
            image: documentDb,
          } as const,
        ]),
  ];
};

/** A server the suites can use, or why there is none; `stop` ends what was started for it. */
export type Resolved =
  | { readonly available: true; readonly url: string; readonly source: string; stop(): Promise<void> }
  | { readonly available: false; readonly reason: string };

/** What resolving a source needs from the outside world (the real ones in real-mongo.ts; fakes in the test). */
export interface EngineWorld {
  /** null when a container runtime answers, else why not (one line). */
  runtime(): Promise<string | null>;
  /** Starts the container of `source` and answers its URL and a stop, or throws. */
  startContainer(
    source: Extract<EngineSource, { kind: 'container' }>,
  ): Promise<{ readonly url: string; readonly stop: () => Promise<void> }>;
  /** null when the server at `url` can hold the suites (a replica set member or mongos), else why not. */
  refusal(url: string): Promise<string | null>;
}

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

export const resolveSource = async (source: EngineSource, world: EngineWorld): Promise<Resolved> => {
  if (source.kind === 'url') {
    const refusal = await world.refusal(source.url);
    return refusal === null
      ? { available: true, url: source.url, source: source.name, stop: () => Promise.resolve() }
      : { available: false, reason: refusal };
  }
  const noRuntime = await world.runtime();
  if (noRuntime !== null)
    return { available: false, reason: `MONGO_URL is not set and no container runtime answered (${noRuntime})` };
  try {
    const started = await world.startContainer(source);
    const refusal = await world.refusal(started.url);
    if (refusal === null) return { available: true, url: started.url, source: source.name, stop: () => started.stop() };
    await started.stop();
    return { available: false, reason: refusal };
  } catch (e) {
    return { available: false, reason: `Testcontainers could not start ${source.image} (${firstLine(e)})` };
  }
};

/** The divergences of DocumentDB 0.108 (docs/mongodb.md) and the tests that meet them, by title. */
const documentDbDivergences: readonly (readonly [RegExp, string])[] = [
  [
    /three clients × 40 concurrent writers|racing with updates|renames of one customer from two processes|prints writes\/s/,
    'D1, every write conflict costs a whole transaction (retried by its code), and under this many concurrent writers some outlast the retry window',
  ],
  [/change stream shows|one lsid and txnNumber/, 'D2, no change streams'],
  [/every planned query of/, 'D4, index order is not used for sorting (an in-memory SORT stage)'],
];

/** The divergence a test meets on the engine its full title names, or null (always null with DOCUMENTDB_DIVERGENCES=run). */
export const divergenceOf = (fullTitle: string, env: Env): string | null => {
  if (!fullTitle.includes('DocumentDB') || env['DOCUMENTDB_DIVERGENCES'] === 'run') return null;
  return documentDbDivergences.find(([test]) => test.test(fullTitle))?.[1] ?? null;
};
