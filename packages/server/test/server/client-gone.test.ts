import { expect } from 'chai';
import { request } from 'node:https';
import { blobFilesIn, blobFilesSettled } from './child.js';
import { embeddedSuite } from './embedded-suite.js';
import { postOptions } from './sending.js';

// A client that goes away in the middle of its request (an upload cancelled half-way, a script
// killed while sending) is its own doing, not the service's (docs/operations.md, "Logs"): the
// access log says 499 "client closed request" (nginx's status), at info level, and nothing is
// logged as an error (no 500, no stack, no "unhandled"); nothing of the request is kept, and
// the service goes on answering. Against the real process over HTTPS.

interface Line {
  readonly level: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

const admin = 'client-gone-admin-1';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('server: a client that goes away mid-request is logged as 499, not as a fault', function () {
  this.timeout(60_000);
  const service = embeddedSuite('client-gone', { ADMIN_PASSWORD: admin });

  const lines = (): Line[] =>
    service.child
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);

  /** Sends `sent` bytes of a body announced as `announced`, then resets the connection. */
  const sendPartly = async (path: string, contentType: string, announced: number, sent: Buffer): Promise<void> => {
    const req = request(postOptions(service.child, service.token, path, announced, contentType));
    req.on('error', () => undefined);
    await new Promise<void>((resolve) =>
      req.write(sent, () => {
        resolve();
      }),
    );
    // Long enough for the route to be reading the body.
    await sleep(300);
    req.destroy();
  };

  /** The access log's line for the one request to `path` whose query holds `marker` (waits 5 s at most for it). */
  const accessLine = async (path: string, marker: string): Promise<Line> => {
    for (let i = 0; i < 100; i += 1) {
      const found = lines().filter(
        (l) => l.message === 'request' && l.path === path && String(l.query).includes(marker),
      );
      if (found.length > 0) {
        expect(found, `one line for ${path}?${marker}`).to.have.length(1);
        return found[0]!;
      }
      await sleep(50);
    }
    return expect.fail(`no access-log line for ${path}: ${service.child.stdout()}`);
  };

  const cases = [
    {
      what: 'a raw upload',
      path: '/v1/uploads',
      query: '?filename=half.bin',
      type: 'application/octet-stream',
      announced: 2 * 1024 * 1024,
      sent: Buffer.alloc(512 * 1024, 3),
    },
    {
      what: 'a multipart upload',
      path: '/v1/uploads',
      query: '',
      type: 'multipart/form-data; boundary=xyz',
      announced: 2 * 1024 * 1024,
      sent: Buffer.concat([
        Buffer.from(
          '--xyz\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\nContent-Type: application/octet-stream\r\n\r\n',
        ),
        Buffer.alloc(256 * 1024, 4),
      ]),
    },
    {
      what: 'a JSON body',
      path: '/v1/tickets',
      query: '',
      type: 'application/json',
      announced: 4000,
      sent: Buffer.from('{"subject": "half a ticket", "description": "'),
    },
  ];

  for (const c of cases) {
    it(`${c.what} cut off half-way: 499 at info level, no error line, nothing kept, the service answers on`, async () => {
      const before = blobFilesIn(service.dataDir);
      const errorsBefore = lines().filter((l) => l.level === 'error').length;
      // A query parameter the route ignores, to find the request's access-log line.
      const marker = `n=${encodeURIComponent(c.what)}`;
      await sendPartly(`${c.path}${c.query}${c.query === '' ? '?' : '&'}${marker}`, c.type, c.announced, c.sent);
      const line = await accessLine(c.path, marker);
      expect(line.status, JSON.stringify(line)).to.equal(499);
      expect(line.level).to.equal('info');
      await sleep(200);
      const errors = lines()
        .filter((l) => l.level === 'error')
        .slice(errorsBefore);
      expect(errors, 'no error-level line').to.deep.equal([]);
      expect(
        lines().filter((l) => l.message === 'client error' || l.message === 'unhandled'),
        'no client-error answer written to the gone connection',
      ).to.deep.equal([]);
      expect(await blobFilesSettled(service.dataDir, before), 'nothing of the request is kept').to.deep.equal(before);
      const health = await service.child.request('GET', '/healthz');
      expect(health.status).to.equal(200);
    });
  }

  it('the tickets are as before: the half-sent POST made none', async () => {
    const list = await service.child.request('GET', '/v1/tickets', {
      headers: { Authorization: `Bearer ${service.token}` },
    });
    expect(list.status).to.equal(200);
    expect(list.json).to.deep.equal([]);
  });
});
