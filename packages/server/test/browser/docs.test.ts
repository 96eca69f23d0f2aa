import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { suiteApi } from '../support/suite-api.js';
import { browserSuite } from './chromium.js';

// GET /docs in a real browser: the page renders the served OpenAPI document with the
// renderer the service bundles, and nothing is fetched from another origin.

interface PageRun {
  readonly page: Page;
  /** Every request the page made (URL). */
  readonly requests: string[];
  readonly consoleErrors: string[];
  readonly failedRequests: string[];
}

describe('Browser: GET /docs renders the OpenAPI document, offline', function () {
  this.timeout(60_000);
  const web = browserSuite();

  const open = async (path: string): Promise<PageRun> => {
    const origin = new URL(web.api.server.url).origin;
    const run: PageRun = { page: await web.context.newPage(), requests: [], consoleErrors: [], failedRequests: [] };
    // The page must be self-contained: any request to another origin is recorded and
    // refused (the test machine may well be offline; a pass must not depend on that).
    await web.context.route(
      (url) => url.origin !== origin && url.protocol !== 'data:',
      (route) => route.abort('blockedbyclient'),
    );
    run.page.on('request', (r) => run.requests.push(r.url()));
    run.page.on('requestfailed', (r) => run.failedRequests.push(`${r.url()}: ${r.failure()?.errorText ?? '?'}`));
    run.page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') run.consoleErrors.push(`${m.type()}: ${m.text()}`);
    });
    run.page.on('pageerror', (e) => run.consoleErrors.push(`pageerror: ${e.message}`));
    const answer = await run.page.goto(`${web.api.server.url}${path}`, { waitUntil: 'load' });
    expect(answer?.status()).to.equal(200);
    return run;
  };

  const expectSelfContained = (run: PageRun): void => {
    const origin = new URL(web.api.server.url).origin;
    const foreign = run.requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
    expect(foreign, 'requests to another origin').to.deep.equal([]);
    expect(run.failedRequests, 'failed requests').to.deep.equal([]);
    expect(run.consoleErrors, 'console errors').to.deep.equal([]);
  };

  it('lists the ticket and message operations from /v1/openapi.json with samples, runs "Try it out", with no console error and nothing from another origin', async () => {
    const run = await open('/docs');
    const { page } = run;
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(
      run.requests.some((u) => new URL(u).pathname === '/v1/openapi.json'),
      'the page loads /v1/openapi.json',
    ).to.equal(true);

    // Method and path of every operation shown ("GET /v1/tickets").
    const operations = await page.evaluate<
      string[]
    >(`Array.from(document.querySelectorAll('.opblock-summary')).map((n) =>
      ((n.querySelector('.opblock-summary-method')?.textContent ?? '').trim() + ' ' +
       (n.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '').trim()))`);
    for (const op of [
      'GET /v1/tickets',
      'POST /v1/tickets',
      'GET /v1/tickets/{ticket_id}',
      'PUT /v1/tickets/{ticket_id}',
      'DELETE /v1/tickets/{ticket_id}',
      'GET /v1/tickets/{ticket_id}/messages',
      'POST /v1/tickets/{ticket_id}/messages',
      'GET /v1/tickets/{ticket_id}/messages/{message_id}',
    ]) {
      expect(operations, `operations shown: ${operations.join(', ')}`).to.include(op);
    }

    // Expanding an operation shows its sample: the example response of POST /v1/tickets.
    const create = page
      .locator('.opblock-post')
      .filter({ has: page.locator('[data-path="/v1/tickets"]') })
      .first();
    await create.locator('.opblock-summary-control').click();
    const sample = create.locator('.responses-wrapper .microlight, .responses-wrapper .highlight-code').first();
    await sample.waitFor({ timeout: 10_000 });
    const text = await sample.innerText();
    expect(text).to.match(/"subject"\s*:/);
    expect(text).to.match(/"id"\s*:\s*\d+/);

    // "Try it out" works under the page's Content-Security-Policy (one page load: rendering
    // the whole document takes seconds): GET /v1/tickets with a bearer token answers 200.
    const token = await web.api.adminToken();
    await page.evaluate(`window.ui.preauthorizeApiKey('bearer', ${JSON.stringify(token)})`);
    const list = page
      .locator('.opblock-get')
      .filter({ has: page.locator('[data-path="/v1/tickets"]') })
      .first();
    await list.locator('.opblock-summary-control').click();
    await list.locator('.try-out__btn').click();
    // Nothing optional is pre-filled from the examples or defaults (issue 20): the first try is
    // the plain first page, not page 2 of a search.
    const row = (name: string) => list.locator(`tr[data-param-name="${name}"]`);
    await row('page').locator('input').waitFor({ timeout: 10_000 });
    for (const name of ['page', 'per_page', 'q', 'sort']) {
      expect(await row(name).locator('input').inputValue(), name).to.equal('');
    }
    // envelope and callback are documented in prose, not as parameters (issue 24 item 7).
    for (const name of ['envelope', 'callback', 'access_token']) expect(await row(name).count(), name).to.equal(0);
    expect(await row('pretty').locator('select').inputValue(), 'pretty').to.equal('');
    for (const name of ['state', 'fields', 'embed']) {
      const selected = await row(name)
        .locator('select')
        .evaluate((n) => Array.from((n as unknown as { selectedOptions: ArrayLike<unknown> }).selectedOptions).length);
      expect(selected, name).to.equal(0);
    }
    const sent = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/v1/tickets' && r.request().method() === 'GET',
    );
    await list.locator('.execute').click();
    const answer = await sent;
    expect(new URL(answer.url()).search, 'no query parameter is sent').to.equal('');
    expect(answer.headers()['content-type']).to.match(/^application\/json/);
    const body = JSON.parse(await answer.text()) as unknown;
    expect(body, 'the first page of tickets, as JSON').to.be.an('array');
    const status = list.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 10_000 });
    expect((await status.innerText()).trim()).to.equal('200');
    expect(
      run.requests.some((u) => new URL(u).pathname === '/v1/tickets'),
      'the request was sent',
    ).to.equal(true);
    expectSelfContained(run);
  });
});

describe('HTTP: GET /docs and its assets', () => {
  const api = suiteApi({ HTTP_PORT: '0' });

  it('answers with a Content-Security-Policy that forbids other origins, and serves its assets itself', async () => {
    const page = await api.get('/docs');
    expect(page.status).to.equal(200);
    expect(page.header('content-type')).to.match(/^text\/html/);
    const csp = page.header('content-security-policy') ?? '';
    expect(csp).to.include("default-src 'none'");
    expect(csp).to.include("script-src 'self'");
    expect(csp).not.to.match(/\*|https?:\/\/(?!localhost)/);
    for (const src of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const url = src[1] ?? '';
      expect(url, 'a URL in the page').to.match(/^\//);
    }
    const bundle = await api.get('/docs/assets/swagger-ui-bundle.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(bundle.status).to.equal(200);
    expect(bundle.header('content-type')).to.match(/^text\/javascript/);
    expect(bundle.header('content-encoding')).to.equal('gzip');
    expect(bundle.header('x-rate-limit-limit')).to.match(/^\d+$/);
    const again = await api.get('/docs/assets/swagger-ui-bundle.js', {
      headers: { 'If-None-Match': bundle.header('etag') ?? '' },
    });
    expect(again.status).to.equal(304);
    expect((await api.get('/docs/assets/package.json')).status).to.equal(404);
    expect((await api.get('/docs/assets/..%2Fpackage.json')).status).to.equal(404);
    expect((await api.request('POST', '/docs')).status).to.equal(405);
  });

  it('is public and unversioned: no token needed, and a bad token or unknown X-Api-Version does not refuse it', async () => {
    const plain = await api.get('/docs/');
    expect(plain.status).to.equal(200);
    const odd = await api.get('/docs', { headers: { Authorization: 'Bearer not-a-token', 'X-Api-Version': '9.9' } });
    expect(odd.status).to.equal(200);
    expect(odd.header('content-type')).to.match(/^text\/html/);
    const head = await api.request('HEAD', '/docs');
    expect(head.status).to.equal(200);
    expect(head.text).to.equal('');
  });

  it('is refused over plain HTTP like every other path: 403, no redirect', async () => {
    for (const path of ['/docs', '/docs/assets/swagger-ui-bundle.js']) {
      const plain = await api.get(path, { plain: true });
      expect(plain.status, path).to.equal(403);
      expect(plain.header('location'), path).to.equal(undefined);
      expect(plain.json, path).to.be.an('object').that.includes.keys('code', 'message');
    }
  });
});
