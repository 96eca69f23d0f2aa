import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'playwright-core';
import { browserSuite } from './chromium.js';

// JSONP in a real browser: a page on another origin (a plain Node server on 127.0.0.1)
// loads the ticket list with <script src=".../v1/tickets?callback=cb&access_token=...">,
// and its callback receives the envelope {status_code, next_page, response}.

interface Envelope {
  status_code: number;
  next_page: string | null;
  response: unknown;
}

describe('Browser: JSONP from a page on another origin', function () {
  this.timeout(60_000);
  const web = browserSuite();
  let pages: Server | null = null;
  let pageOrigin: string;
  /** The HTML the local page server answers with, set by each test. */
  let html = '';

  before(async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    pages = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    const p = pages;
    if (p !== null) await new Promise((resolve) => p.close(resolve));
  });

  /** Opens a page (on the local origin) whose script element loads `apiPath` with callback `cb`; answers what cb got. */
  const loadWithScript = async (
    apiPath: string,
  ): Promise<{ got: Envelope; script: Response; pageErrors: string[] }> => {
    const src = `https://localhost:${web.api.server.port}${apiPath}`;
    html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>JSONP</title></head><body>
<script>function cb(x){window.got=x}</script>
<script src="${src.replace(/&/g, '&amp;')}"></script>
</body></html>`;
    const page = await web.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const scriptAnswer = page.waitForResponse((r) => r.url().startsWith(src.split('?')[0] ?? src));
    const answer = await page.goto(`${pageOrigin}/`, { waitUntil: 'load' });
    expect(answer?.status()).to.equal(200);
    expect(new URL(page.url()).origin).to.not.equal(new URL(web.api.server.url).origin);
    const script = await scriptAnswer;
    const got = await page.evaluate<Envelope | undefined>('window.got');
    expect(got, 'the callback ran').to.not.equal(undefined);
    return { got: got!, script, pageErrors };
  };

  it('hands the callback the envelope: status_code 200, next_page null, the ticket list as response', async () => {
    const customer = await web.api.userWithToken('customer', 'Grace Hopper');
    const created = await web.api.post(
      '/v1/tickets',
      { subject: 'JSONP from a browser', summary: 'Loaded by a script element' },
      { token: customer.token },
    );
    expect(created.status, created.text).to.equal(201);
    const ticket = created.json as { id: number; url: string };

    const { got, script, pageErrors } = await loadWithScript(
      `/v1/tickets?callback=cb&access_token=${encodeURIComponent(customer.token)}`,
    );
    expect(pageErrors).to.deep.equal([]);
    expect(script.status()).to.equal(200);
    const headers = script.headers();
    expect(headers['content-type']).to.match(/^application\/javascript/);
    expect(headers['x-content-type-options']).to.equal('nosniff');
    expect(headers['x-total-count']).to.equal('1');

    expect(Object.keys(got).sort()).to.deep.equal(['next_page', 'response', 'status_code']);
    expect(got.status_code).to.equal(200);
    expect(got.next_page).to.equal(null);
    expect(got.response).to.be.an('array').with.lengthOf(1);
    const [listed] = got.response as {
      id: number;
      url: string;
      subject: string;
      state: string;
      customer_name: string;
    }[];
    expect(listed).to.include({
      id: ticket.id,
      url: ticket.url,
      subject: 'JSONP from a browser',
      state: 'open',
      customer_name: 'Grace Hopper',
    });
  });

  it('envelopes a failure too: a bad token still runs the callback, with status_code 401', async () => {
    const { got, script, pageErrors } = await loadWithScript('/v1/tickets?callback=cb&access_token=not-a-valid-token');
    expect(pageErrors).to.deep.equal([]);
    expect(script.status()).to.equal(200);
    expect(got.status_code).to.equal(401);
    expect(got.next_page).to.equal(null);
    expect(got.response).to.be.an('object').that.includes.keys('code', 'message');
  });
});
