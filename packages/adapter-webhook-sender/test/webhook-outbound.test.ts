import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isPublicAddress } from '../src/address-guard.js';
import { sendOutbound, type OutboundOptions } from '../src/sender.js';
import { signDelivery } from '../src/signature.js';

describe('webhooks: the SSRF guard', () => {
  const table: readonly [string, boolean][] = [
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['127.255.0.9', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['198.18.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::a00:1', false],
    ['2001:db8::1', false],
    // Probed: accepted as webhook receivers, though the IANA IPv6 special-purpose registry says
    // none is globally reachable: documentation (3fff::/20, RFC 9637), SRv6 SIDs (5f00::/16,
    // RFC 9602), the dummy prefix (100:0:0:1::/64, RFC 9780); and the deprecated site-local
    // fec0::/10 (RFC 3879), still an inside network where it is used.
    ['3fff::1', false],
    ['3fff:fff:ffff::1', false],
    ['4000::1', true],
    ['5f00::1', false],
    ['5f00:ffff::1', false],
    ['100:0:0:1::1', false],
    ['fec0::1', false],
    ['feff::1', false],
    ['not an address', false],
  ];
  for (const [ip, expected] of table) {
    it(`${ip} is ${expected ? 'public' : 'refused'}`, () => {
      expect(isPublicAddress(ip)).to.equal(expected);
    });
  }
});

describe('webhooks: signatures', () => {
  it('are verified by the Standard Webhooks library, and fail for another body or secret', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const body = '{"seq":1,"type":"ticket.created"}';
    const now = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1_1',
      'webhook-timestamp': String(now),
      'webhook-signature': signDelivery(secret, 'msg_1_1', now, body),
    };
    expect(new Webhook(secret).verify(body, headers)).to.deep.equal({ seq: 1, type: 'ticket.created' });
    expect(() => new Webhook(secret).verify(`${body} `, headers)).to.throw();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(body, headers)).to.throw();
  });
});

describe('webhooks: one outbound attempt', () => {
  let server: Server;
  let base: string;
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const options: OutboundOptions = { timeoutMs: 2000, allowPrivate: true, maxResponseBytes: 1024 };

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        handler(req, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('POSTs the body with the given headers and reports the status and the start of the answer', async () => {
    handler = (_req, res) => {
      res.writeHead(204).end();
    };
    const r = await sendOutbound(
      { url: `${base}/hook`, headers: { 'content-type': 'application/json', 'webhook-id': 'msg_9' }, body: '{"a":1}' },
      options,
    );
    expect(r).to.include({ status: 204, error: null, response: '' });
    const last = received[received.length - 1];
    expect(last?.body).to.equal('{"a":1}');
    expect(last?.headers['webhook-id']).to.equal('msg_9');
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    handler = (_req, res) => {
      res.writeHead(302, { Location: `${base}/elsewhere` }).end();
    };
    const before = received.length;
    const r = await sendOutbound({ url: `${base}/hook`, headers: {}, body: '{}' }, options);
    expect(r.status).to.equal(302);
    expect(received.length).to.equal(before + 1);
  });

  it('keeps at most 1 KiB of what the receiver answers', async () => {
    handler = (_req, res) => {
      res.writeHead(500);
      res.end('x'.repeat(100_000));
    };
    const r = await sendOutbound({ url: `${base}/hook`, headers: {}, body: '{}' }, options);
    expect(r.status).to.equal(500);
    expect(r.response).to.equal('x'.repeat(1024));
  });

  it('gives up on a receiver that does not answer in time', async () => {
    handler = () => undefined;
    const r = await sendOutbound({ url: `${base}/hook`, headers: {}, body: '{}' }, { ...options, timeoutMs: 200 });
    expect(r.status).to.equal(null);
    expect(r.error).to.include('no answer within 0.2 s');
    expect(r.durationMs).to.be.within(150, 2000);
  });

  it('reports a reset connection', async () => {
    handler = (req) => {
      req.socket.destroy();
    };
    const r = await sendOutbound({ url: `${base}/hook`, headers: {}, body: '{}' }, options);
    expect(r.status).to.equal(null);
    expect(r.error).to.match(/the request failed/);
  });

  it('refuses loopback, private and plain-http targets without allowPrivate, before connecting', async () => {
    const before = received.length;
    const strict = { ...options, allowPrivate: false };
    expect((await sendOutbound({ url: `${base}/hook`, headers: {}, body: '{}' }, strict)).error).to.equal(
      'the URL must be https',
    );
    const loop = await sendOutbound({ url: 'https://127.0.0.1:1/hook', headers: {}, body: '{}' }, strict);
    expect(loop.error).to.include('not a public address');
    const rebound = await sendOutbound(
      { url: 'https://hooks.example.test/x', headers: {}, body: '{}' },
      { ...strict, resolve: () => Promise.resolve(['93.184.216.34', '10.0.0.7']) },
    );
    // Never the address the host resolved to (contract §11): the answer must not map the network's inside.
    expect(rebound.error).to.equal('the host hooks.example.test resolves to an address that is not a public address');
    expect(received.length).to.equal(before);
  });

  it('connects to the address it checked, whatever a second lookup would say', async () => {
    handler = (_req, res) => res.writeHead(200).end('ok');
    const port = (server.address() as AddressInfo).port;
    let lookups = 0;
    const r = await sendOutbound(
      { url: `http://receiver.example.test:${String(port)}/hook`, headers: {}, body: '{}' },
      {
        ...options,
        resolve: () => {
          lookups += 1;
          return Promise.resolve(['127.0.0.1']);
        },
      },
    );
    expect(r).to.include({ status: 200, response: 'ok' });
    expect(lookups).to.equal(1);
    expect(received[received.length - 1]?.headers.host).to.equal(`receiver.example.test:${String(port)}`);
  });
});
