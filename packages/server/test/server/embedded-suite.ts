import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reap, startedAsAdmin, type Started } from './child.js';

export interface EmbeddedSuite {
  /** The real process, started by `before`. */
  readonly child: Started;
  /** The bootstrap admin's token. */
  readonly token: string;
  /** Its DATA_DIR (`data` in the suite's own temporary directory). */
  readonly dataDir: string;
}

/**
 * Registers the hooks of the enclosing describe block: before its tests, the real process on an
 * embedded store in a fresh temporary directory (support-<name>-…), with `env`, logged in as its
 * admin (startedAsAdmin); after them, the process killed and the directory removed. Answers the
 * suite, filled in by `before`.
 */
export const embeddedSuite = (
  name: string,
  env: Readonly<Record<string, string>> & { readonly ADMIN_PASSWORD: string },
): EmbeddedSuite => {
  const suite: { child?: Started; token?: string; dataDir?: string } = {};
  let dir = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), `support-${name}-`));
    const dataDir = join(dir, 'data');
    Object.assign(suite, { dataDir }, await startedAsAdmin({ ...env, STORE: 'embedded', DATA_DIR: dataDir }));
  });
  after(async () => {
    await reap(suite.child);
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  return suite as EmbeddedSuite;
};
