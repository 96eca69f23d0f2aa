import { expect } from 'chai';
import { connect } from 'node:tls';
import { suiteApi } from '../support/suite-api.js';

// An idle kept-alive connection stays open 65 s (longer than the 60 s of common proxies and
// client pools), and the server says so in `Keep-Alive: timeout=65`: a client that reuses a
// connection idle for a few seconds does not meet a server closing it at that moment
// (the soaks' ECONNRESET / socket hang up with the former 5 s).

const request = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n';

describe('server: kept-alive connections', function () {
  this.timeout(30_000);
  const api = suiteApi();

  it('answers on a connection that stayed idle longer than 5 s, and announces timeout=65', async () => {
    const socket = connect({ host: '127.0.0.1', port: api.server.port, ca: api.server.cert, servername: 'localhost' });
    let received = '';
    let closed = false;
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
    });
    socket.on('close', () => {
      closed = true;
    });
    try {
      await new Promise<void>((resolve) => socket.once('secureConnect', resolve));
      socket.write(request);
      await new Promise((r) => setTimeout(r, 6_500));
      expect(closed, 'the server closed the idle connection').to.equal(false);
      socket.write(request);
      await new Promise((r) => setTimeout(r, 500));
      const heads = received.match(/HTTP\/1\.1 \d{3} [^\r]*/g);
      expect(heads).to.deep.equal(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
      expect(received.toLowerCase()).to.include('keep-alive: timeout=65');
    } finally {
      socket.destroy();
    }
  });
});
