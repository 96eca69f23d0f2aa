import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContractStore } from '@support/application/testing';
import { createEmbeddedStore, type EmbeddedStore, type EmbeddedStoreOptions } from '../src/index.js';

/** A fresh temporary data directory (removed by the store's close when `own` is true). */
export const tempDataDir = (): string => mkdtempSync(join(tmpdir(), 'support-embedded-'));

/** An embedded store on `dir`, started; closing it removes the directory when `removeOnClose`. */
export const startedStore = async (
  dir: string,
  options: Omit<EmbeddedStoreOptions, 'dataDir'> = {},
  removeOnClose = false,
): Promise<EmbeddedStore & ContractStore> => {
  const store = createEmbeddedStore({ dataDir: dir, ...options });
  await store.start();
  return {
    ...store,
    close: async () => {
      await store.close();
      if (removeOnClose) rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Gives each test of the enclosing suite a fresh temporary data directory (`use` is told it), removed after the test. */
export const tempDirEachTest = (use: (dir: string) => void): void => {
  let dir = '';
  beforeEach(() => {
    dir = tempDataDir();
    use(dir);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
};

/** Temporary data directories for the enclosing suite, made on demand, all removed after its tests. */
export const tempDirsOfSuite = (): (() => string) => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = tempDataDir();
    dirs.push(d);
    return d;
  };
};
