// The test suites that run only against a MongoDB-wire server named by MONGO_URL (built files,
// relative to the repository's root): scripts/ferretdb-run.mjs runs exactly these, and
// packages/adapter-mongo/test/ferretdb-suites.test.ts checks that no such suite is left out.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const mongoUrlSuites = (root) => {
  const adapterTests = join('packages', 'adapter-mongo', 'dist', 'test');
  return [
    ...readdirSync(join(root, adapterTests))
      .filter((f) => f === 'contract.test.js' || /^real-mongo.*\.test\.js$/.test(f))
      .sort()
      .map((f) => join(adapterTests, f)),
    join('packages', 'server', 'dist', 'test', 'fuzz', 'fuzz-mongo.test.js'),
  ];
};
