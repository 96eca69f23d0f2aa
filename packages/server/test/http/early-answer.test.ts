import { expect } from 'chai';
import { connect } from 'node:tls';
import type { Api } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';

// An answer given before the request's body has arrived reaches a client that is still
// writing the body (issue 24, item 6: Schemathesis got EPIPE instead of the 413 under load).
// The server answers at once with Connection: close and closes only once the rest of the body
// has been read and thrown away (a lingering close, bounded).

interface Outcome {
  readonly statusLine: string;
  readonly connectionHeader: string | undefined;
  readonly writeError: string | null;
  readonly bytesWritten: number;
}

/** Writes the request head, then the body in 16 KiB pieces with pauses, reading whatever comes back. */
const sendSlowly = (api: Api, head: string, bodyBytes: number): Promise<Outcome> =>
  new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port: api.server.port, ca: api.server.cert, servername: 'localhost' },
      () => {
        void (async () => {
          socket.write(head);
          const piece = Buffer.alloc(16 * 1024, 0x61);
          while (written < bodyBytes && !socket.destroyed && writeError === null) {
            const n = Math.min(piece.length, bodyBytes - written);
            socket.write(piece.subarray(0, n));
            written += n;
            await new Promise((r) => setTimeout(r, 1));
          }
        })();
      },
    );
    let received = '';
    let written = 0;
    let writeError: string | null = null;
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      writeError = e.code ?? e.message;
    });
    socket.on('close', () => {
      const [headText = ''] = received.split('\r\n\r\n');
      const lines = headText.split('\r\n');
      const connection = lines.find((l) => l.toLowerCase().startsWith('connection:'));
      resolve({
        statusLine: lines[0] ?? '',
        connectionHeader: connection?.slice('connection:'.length).trim(),
        writeError,
        bytesWritten: written,
      });
    });
    setTimeout(() => {
      reject(new Error(`no close within 30 s (received ${received.length} bytes)`));
    }, 30_000).unref();
  });

describe('HTTP: an early answer reaches a client still sending its body (lingering close)', () => {
  let admin: string;
  const api = suiteApi({ STORE: 'memory' });
  before(async () => {
    admin = await api.adminToken();
  });

  const total = 1024 * 1024 + 1;
  for (const connection of ['Connection: close\r\n', 'Connection: keep-alive\r\n']) {
    it(`answers 1 MiB + 1 byte announced by Content-Length with 413, and the client writes it all without EPIPE (${connection.trim()})`, async () => {
      const head = `POST /v1/tickets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${admin}\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n${connection}\r\n`;
      const outcome = await sendSlowly(api, head, total);
      expect(outcome.statusLine).to.equal('HTTP/1.1 413 Payload Too Large');
      expect(outcome.writeError).to.equal(null);
      expect(outcome.bytesWritten).to.equal(total);
      expect(outcome.connectionHeader).to.equal('close');
    });
  }

  it('gives a 401 that never reads the body the same lingering close', async () => {
    const head = `POST /v1/tickets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 300000\r\nConnection: close\r\n\r\n`;
    const outcome = await sendSlowly(api, head, 300_000);
    expect(outcome.statusLine).to.equal('HTTP/1.1 401 Unauthorized');
    expect(outcome.writeError).to.equal(null);
    expect(outcome.bytesWritten).to.equal(300_000);
  });
});
