import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A real ClamAV daemon for the scanning suites (Debian's clamav-daemon, which .ci/run installs).
// Its signature download cannot reach the internet here, so it is given a database of one line:
// the MD5 of the EICAR test file (the industry's harmless test "virus"), which ClamAV loads like
// any signature. Listens on a Unix socket in a fresh directory; stopped and removed after.

export const clamdBinary = '/usr/sbin/clamd';

/** The EICAR test file (68 bytes): every scanner reports it, and it harms nothing. */
export const eicar = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const eicarSignature = '44d88612fea8a8f36de82e1278abb02f:68:Eicar-Test-Signature';

export interface Clamd {
  readonly socket: string;
  stop(): Promise<void>;
}

const answersPing = (socket: string): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect(socket);
    let text = '';
    s.on('data', (c: Buffer) => (text += c.toString()));
    s.on('end', () => {
      resolve(text.startsWith('PONG'));
    });
    s.on('error', () => {
      resolve(false);
    });
    s.write('zPING\0');
  });

/** Starts clamd with the one-line database; resolves once it answers PING (it loads in a few seconds). */
export const startClamd = async (): Promise<Clamd> => {
  const dir = mkdtempSync(join(tmpdir(), 'support-clamd-'));
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'db', 'eicar.hdb'), `${eicarSignature}\n`);
  const socket = join(dir, 'clamd.sock');
  writeFileSync(
    join(dir, 'clamd.conf'),
    [
      'Foreground yes',
      `DatabaseDirectory ${join(dir, 'db')}`,
      `LocalSocket ${socket}`,
      `LogFile ${join(dir, 'clamd.log')}`,
      'StreamMaxLength 64M',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(clamdBinary, [`--config-file=${join(dir, 'clamd.conf')}`], { stdio: 'ignore' });
  const state = { exited: false };
  child.on('exit', () => (state.exited = true));
  const until = Date.now() + 60_000;
  while (!(existsSync(socket) && (await answersPing(socket)))) {
    if (state.exited || Date.now() > until) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error('clamd did not start (see its log)');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    socket,
    stop: async () => {
      if (!state.exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
