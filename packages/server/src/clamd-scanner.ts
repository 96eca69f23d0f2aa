import type { MalwareScanner, ScanResult } from '@support/application';
import { connect, type Socket } from 'node:net';

// The MalwareScanner port on a ClamAV daemon (SCAN_CLAMD): the INSTREAM command of clamd's
// protocol (clamd(8)): "zINSTREAM\0", then the bytes as chunks each prefixed by its length
// (4 bytes, network order), then a zero length; clamd answers "stream: OK", "stream: <name>
// FOUND" or "... ERROR" (a NUL ends the line). An address is host:port or a Unix socket path.

/** How long clamd may take to answer once the last byte is sent, and to accept the connection. */
const answerMs = 60_000;
const connectMs = 5_000;
const maxChunk = 64 * 1024;

const target = (address: string): { path: string } | { host: string; port: number } => {
  const m = /^(.+):(\d{1,5})$/.exec(address);
  if (m === null || address.startsWith('/')) return { path: address };
  return { host: (m[1] ?? '').replace(/^\[(.*)\]$/, '$1'), port: Number(m[2]) };
};

/** Waits until the socket may take more (or fails). */
const drained = (socket: Socket): Promise<void> =>
  new Promise((resolve, reject) => {
    const done = (e?: Error): void => {
      socket.off('drain', done).off('error', done).off('close', closed);
      if (e === undefined) resolve();
      else reject(e);
    };
    const closed = (): void => {
      done(new Error('clamd closed the connection'));
    };
    socket.on('drain', done).on('error', done).on('close', closed);
  });

const lengthOf = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** What clamd's answer line says. */
export const verdictOf = (line: string): ScanResult => {
  const text = line.replace(/\0+$/, '').trim();
  if (/^stream: OK$/.test(text)) return { kind: 'clean' };
  const found = /^stream: (.+) FOUND$/.exec(text);
  if (found !== null) return { kind: 'infected', signature: found[1] ?? 'unknown' };
  return { kind: 'unavailable', reason: `clamd answered "${text.slice(0, 200)}"` };
};

export const clamdScanner = (address: string): MalwareScanner => ({
  scan: async (bytes) => {
    let socket: Socket | null = null;
    try {
      const s = connect(target(address));
      socket = s;
      s.setTimeout(connectMs);
      const answer = new Promise<string>((resolve, reject) => {
        const parts: Buffer[] = [];
        s.on('data', (c: Buffer) => parts.push(c));
        s.on('end', () => {
          resolve(Buffer.concat(parts).toString('utf8'));
        });
        s.on('error', reject);
        s.on('timeout', () => {
          reject(new Error('clamd did not answer in time'));
        });
      });
      answer.catch(() => undefined);
      await new Promise<void>((resolve, reject) => {
        s.once('connect', resolve)
          .once('error', reject)
          .once('timeout', () => {
            reject(new Error('clamd did not accept the connection in time'));
          });
      });
      s.setTimeout(answerMs);
      s.write('zINSTREAM\0');
      for await (const chunk of bytes) {
        for (let i = 0; i < chunk.length; i += maxChunk) {
          const part = chunk.subarray(i, i + maxChunk);
          const more = s.write(lengthOf(part.length)) && s.write(part);
          if (!more) await Promise.race([drained(s), answer.then(() => undefined)]);
          // clamd may answer early (its size limit): no reason to send the rest.
          if (s.readableEnded || s.destroyed) break;
        }
      }
      if (!s.destroyed) s.end(lengthOf(0));
      return verdictOf(await answer);
    } catch (e) {
      return { kind: 'unavailable', reason: e instanceof Error ? e.message : String(e) };
    } finally {
      socket?.destroy();
    }
  },
});
