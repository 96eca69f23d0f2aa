import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Gives each test of the enclosing describe block a fresh temporary directory, `prefix` and six
 * random characters under the system's (`use` is told it), removed after the test.
 */
export const tempDirEachTest = (prefix: string, use: (dir: string) => void): void => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    use(dir);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
};
