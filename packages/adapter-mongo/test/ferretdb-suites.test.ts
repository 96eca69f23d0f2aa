import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// scripts/ferretdb-run.mjs says it runs the suites MONGO_URL runs: every built test file that
// reads MONGO_URL itself or asks for the real mongod (realMongo()) must be in its list, and
// nothing else (it once left the change feed's suite out).

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.js') ? [join(dir, e.name)] : [],
  );

const needsMongoUrl = (file: string): boolean => {
  const text = readFileSync(file, 'utf8');
  return (
    text.includes('realMongo()') ||
    text.includes('realEngines()') ||
    /process\.env(\.MONGO_URL|\['MONGO_URL'\])/.test(text)
  );
};

describe('the FerretDB script runs every suite that MONGO_URL runs', () => {
  it('its list is exactly the built suites that need MONGO_URL, the change feed and the fuzz included', async () => {
    const { mongoUrlSuites } = (await import(pathToFileURL(join(root, 'scripts', 'mongo-suites.mjs')).href)) as {
      mongoUrlSuites: (root: string) => string[];
    };
    const expected = ['adapter-mongo', 'server']
      .flatMap((p) => testFiles(join(root, 'packages', p, 'dist', 'test')))
      .filter((f) => f !== fileURLToPath(import.meta.url) && needsMongoUrl(f))
      .map((f) => relative(root, f));
    expect(mongoUrlSuites(root)).to.have.members(expected);
    expect(expected).to.include(join('packages', 'adapter-mongo', 'dist', 'test', 'real-mongo-feed.test.js'));
  });
});
