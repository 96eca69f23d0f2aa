// The hexagon's arrows, enforced: server -> adapters -> application -> domain.
// `node scripts/check-boundaries.mjs` runs these rules on the tree and then proves,
// with deliberately wrong probe files, that each rule still catches what it forbids.
const testFile = '(^|/)(test|test-support)/';

// What a package name resolves to (the `source` condition of each package.json's exports).
const publicEntryPoints = [
  '^packages/[^/]+/src/index\\.ts$',
  '^packages/domain/test-support/mothers\\.ts$',
  '^packages/application/test-support/index\\.ts$',
  '^packages/adapter-http-koa/test/support/worst-bodies\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'domain code may import only itself, fp-ts, io-ts and re2js (a pure, linear-time RE2 engine: the rule of a regexp custom field, contract §10; no I/O, no Node built-ins)',
      severity: 'error',
      from: { path: '^packages/domain/src/' },
      to: {
        pathNot: [
          '^packages/domain/src/',
          'node_modules/(fp-ts|io-ts)/',
          'node_modules/re2js/',
          'node_modules/\\.pnpm/re2js@',
        ],
      },
    },
    {
      name: 'application-imports-only-domain',
      comment: 'application code may import only itself, the domain, fp-ts and io-ts',
      severity: 'error',
      from: { path: '^packages/application/src/' },
      to: {
        pathNot: ['^packages/application/src/', '^packages/domain/', 'node_modules/(fp-ts|io-ts)/'],
      },
    },
    {
      name: 'no-import-of-an-adapter',
      comment: 'only the composition root (server) and the adapter itself may import an adapter',
      severity: 'error',
      from: { path: '^packages/([^/]+)/', pathNot: '^packages/(server|adapter-embedded)/' },
      to: { path: '^packages/(adapter-[^/]+)/', pathNot: '^packages/$1/' },
    },
    {
      name: 'embedded-builds-only-on-memory',
      comment:
        'the embedded store is the memory engine made durable: of the adapters it may import only adapter-memory',
      severity: 'error',
      from: { path: '^packages/adapter-embedded/' },
      to: { path: '^packages/adapter-[^/]+/', pathNot: '^packages/adapter-(embedded|memory)/' },
    },
    {
      name: 'nothing-imports-the-server',
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/server/' },
      to: { path: '^packages/server/' },
    },
    {
      name: 'inner-layers-never-import-outer',
      comment: 'domain never imports application',
      severity: 'error',
      from: { path: '^packages/domain/' },
      to: { path: '^packages/application/' },
    },
    {
      name: 'tests-stay-out-of-production-code',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { path: testFile },
    },
    {
      name: 'no-cycle',
      comment:
        'no module reaches itself through its imports (type-only imports count): a cycle is a type or a helper in the wrong home',
      severity: 'error',
      from: { path: '^packages/' },
      to: { circular: true },
    },
    {
      name: 'benchmarks-use-public-entry-points',
      comment:
        "a benchmark imports a package by its name (its package.json's exports), never a file inside it (what a benchmark needs is exported on purpose)",
      severity: 'error',
      from: { path: '^benchmarks/' },
      to: { path: '^packages/', pathNot: publicEntryPoints },
    },
    {
      name: 'nothing-imports-the-benchmarks',
      comment: 'the benchmarks measure the packages; no package (source or test) depends on them',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^benchmarks/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^(packages|benchmarks)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Nothing is excluded, so an import of a compiled file (dist) or of a package's insides is
    // seen and judged; the check names its targets (sources, tests, benchmarks), never dist.
    doNotFollow: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'default', 'node'],
      extensions: ['.ts', '.js', '.d.ts', '.mjs', '.json'],
    },
    combinedDependencies: false,
  },
};
