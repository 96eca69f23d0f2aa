import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runToExit, startMain } from './child.js';
import { tempDirEachTest } from '../support/temp-dir.js';

// A data directory that cannot be used stops the start with one line, exit 1, never an empty
// start over existing data: another process holds it, or it is not a store this version reads.

describe('server process: a DATA_DIR that cannot be used', function () {
  this.timeout(60_000);
  let dir: string;
  tempDirEachTest('support-data-dir-', (made) => (dir = made));

  const oneLine = (stderr: string): string => {
    const lines = stderr.split('\n');
    expect(lines, `exactly one line on stderr: ${JSON.stringify(stderr)}`).to.have.length(2);
    return lines[0] ?? '';
  };

  it('refuses a second process, naming the one that holds it', async () => {
    const first = await startMain({ STORE: 'embedded', DATA_DIR: dir, ADMIN_PASSWORD: 'data-dir-admin-1' });
    try {
      const second = await runToExit(
        { STORE: 'embedded', DATA_DIR: dir, ADMIN_PASSWORD: 'data-dir-admin-1', PORT: '0' },
        30_000,
      );
      expect(second.code).to.equal(1);
      expect(oneLine(second.stderr)).to.match(
        new RegExp(`DATA_DIR .* is in use by another process, .*pid ${String(first.proc.pid)} `),
      );
    } finally {
      await first.stop();
    }
  });

  it('refuses a store file that is not LMDB, without starting empty over it', async () => {
    writeFileSync(join(dir, 'store.lmdb'), Buffer.alloc(8192, 1));
    const run = await runToExit({ STORE: 'embedded', DATA_DIR: dir, PORT: '0' }, 30_000);
    expect(run.code).to.equal(1);
    expect(oneLine(run.stderr)).to.match(
      /DATA_DIR .*cannot be opened \(it is not an LMDB store\): it was not written by this service, or was overwritten; nothing was changed/,
    );
  });
});
