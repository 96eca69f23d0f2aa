import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { browserSuite } from './chromium.js';

// The /docs page uploads a file (issue 35): "Try it out" on POST /v1/uploads shows a file
// picker for the multipart/form-data body (the document's UploadForm, `file` a binary string),
// and Execute sends what a browser's FormData sends; the service keeps the very bytes.

describe('Browser: the /docs page uploads a file with "Try it out"', function () {
  this.timeout(60_000);
  const web = browserSuite();

  it('picks a file, sends it as multipart/form-data, answers 201 with its name, size and SHA-256; its bytes read back', async () => {
    const origin = new URL(web.api.server.url).origin;
    await web.context.route(
      (url) => url.origin !== origin && url.protocol !== 'data:',
      (route) => route.abort('blockedbyclient'),
    );
    const page = await web.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    expect((await page.goto(`${web.api.server.url}/docs`, { waitUntil: 'load' }))?.status()).to.equal(200);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    const { token } = await web.api.userWithToken('customer');
    await page.evaluate(`window.ui.preauthorizeApiKey('bearer', ${JSON.stringify(token)})`);

    const upload = page
      .locator('.opblock-post')
      .filter({ has: page.locator('[data-path="/v1/uploads"]') })
      .first();
    await upload.locator('.opblock-summary-control').click();
    await upload.locator('.try-out__btn').click();
    // The request body's first type is multipart/form-data: a form with a file picker for `file`.
    const bodyType = upload.locator('.opblock-section-request-body select').first();
    await bodyType.waitFor({ timeout: 10_000 });
    expect(await bodyType.inputValue()).to.equal('multipart/form-data');
    const picker = upload.locator('tr[data-property-name="file"] input[type="file"]');
    await picker.waitFor({ timeout: 10_000 });
    const bytes = Buffer.from('2026-11-27 21:14:03 ERROR the printer caught fire\n'.repeat(200));
    await picker.setInputFiles({ name: 'crash log é.txt', mimeType: 'text/plain', buffer: bytes });

    const sent = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/v1/uploads' && r.request().method() === 'POST',
    );
    await upload.locator('.execute').click();
    const answer = await sent;
    expect(answer.request().headers()['content-type']).to.match(/^multipart\/form-data; boundary=/);
    const created = JSON.parse(await answer.text()) as Record<string, unknown>;
    expect(answer.status(), JSON.stringify(created)).to.equal(201);
    expect(created).to.include({
      filename: 'crash log é.txt',
      content_type: 'text/plain',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const status = upload.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 10_000 });
    expect((await status.innerText()).trim()).to.equal('201');

    const content = await web.api.get(`/v1/attachments/${String(created.id)}/content`, { token });
    expect(content.status).to.equal(200);
    expect(Buffer.from(content.text).equals(bytes)).to.equal(true);
    expect(errors, 'console errors').to.deep.equal([]);
  });
});
