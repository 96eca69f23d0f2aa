import { expect } from 'chai';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reap } from '../server/child.js';
import { startTarget, type Target } from './attacker.js';
import { runBackup } from '../server/backup-cli.js';

// The review found DATA_DIR world-readable (0755 / 0644, backups too): password hashes, token
// hashes, webhook secrets, kept answers. Now everything the service writes there is 0700 / 0600
// whatever the umask, a backup likewise, and a start that finds DATA_DIR open to others warns
// once (contract §11). The real process, under the usual umask (022).

/** Every path under `dir` (itself included) that another user could read or enter, with its mode. */
const openToOthers = async (dir: string): Promise<string[]> => {
  const found: string[] = [];
  for (const name of ['', ...(await readdir(dir, { recursive: true }))]) {
    const mode = (await stat(join(dir, name))).mode & 0o777;
    if ((mode & 0o077) !== 0) found.push(`${name === '' ? '.' : name} ${mode.toString(8)}`);
  }
  return found;
};

describe('attack: the data directory is readable by others (contract §11)', function () {
  this.timeout(120_000);
  let parent: string;
  let target: Target | null = null;
  const previousUmask = process.umask(0o022);

  before(async () => {
    parent = await mkdtemp(join(tmpdir(), 'private-data-'));
    await chmod(parent, 0o755);
  });
  after(async () => {
    if (target !== null) await reap(target.child);
    process.umask(previousUmask);
    await rm(parent, { recursive: true, force: true });
  });

  it('a new DATA_DIR, everything the service writes in it, and a backup are 0700 / 0600', async () => {
    const dataDir = join(parent, 'data');
    target = await startTarget({ STORE: 'embedded', DATA_DIR: dataDir });
    const admin = await target.admin();
    const upload = await target.send('POST', '/v1/uploads', {
      token: admin,
      headers: { 'Content-Type': 'text/plain', 'Content-Disposition': 'attachment; filename="a.txt"' },
      body: 'some bytes',
    });
    expect(upload.status, upload.text).to.equal(201);
    const hook = await target.send('POST', '/v1/webhooks', {
      token: admin,
      body: { url: 'https://127.0.0.1:9/hook', events: ['*'] },
    });
    expect([201, 422]).to.include(hook.status);
    expect(await readdir(dataDir)).to.include.members(['store.lmdb', 'tls-key.pem', 'tls-cert.pem']);
    expect(await openToOthers(dataDir)).to.deep.equal([]);
    const copy = join(parent, 'backup');
    const made = await runBackup(dataDir, copy).done;
    expect(made.code, made.out).to.equal(0);
    expect(await readdir(copy)).to.include('store.lmdb');
    expect(await openToOthers(copy)).to.deep.equal([]);
    await reap(target.child);
    target = null;
    // A start on the backup (a restore) keeps it private.
    target = await startTarget({ STORE: 'embedded', DATA_DIR: copy });
    await target.admin();
    expect(await openToOthers(copy)).to.deep.equal([]);
    expect(target.child.stdout() + target.child.stderr()).not.to.contain('open to other users');
    await reap(target.child);
    target = null;
  });

  it('a start that finds DATA_DIR open to others warns once, and starts', async () => {
    if (target !== null) await reap(target.child);
    const dataDir = join(parent, 'opened');
    target = await startTarget({ STORE: 'embedded', DATA_DIR: dataDir });
    await reap(target.child);
    await chmod(dataDir, 0o755);
    target = await startTarget({ STORE: 'embedded', DATA_DIR: dataDir });
    expect((await target.send('GET', '/v1/users/me', { token: await target.admin() })).status).to.equal(200);
    // One log line (stdout); the start banner on stderr lists the store's warnings beside it.
    const said = target.child
      .stdout()
      .split('\n')
      .filter((l) => l.includes('open to other users'));
    expect(said, 'one warning in the log').to.have.length(1);
    expect(said[0]).to.contain('chmod 700');
  });
});
