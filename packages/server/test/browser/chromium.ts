import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startApi, type Api } from '../support/harness.js';

// The browser suites run in the system's Chromium (Debian package `chromium`), driven by
// playwright-core; no browser is ever downloaded. Without /usr/bin/chromium they do not
// pass: they are marked pending, and say so once, loudly.

export const chromiumPath = '/usr/bin/chromium';

let warned = false;

/** Whether the browser exists; when it does not, prints the one warning line (once per run). */
export const chromiumAvailable = (): boolean => {
  if (existsSync(chromiumPath)) return true;
  if (!warned) {
    warned = true;
    console.log(`Chromium browser suite did NOT run: ${chromiumPath} not found (apt-get install -y chromium)`);
  }
  return false;
};

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath, headless: true, timeout: 30_000 });

export interface BrowserSuite {
  /** The service (startApi), started by `before`. */
  readonly api: Api;
  /** The current test's own browser context (HTTPS errors ignored: the certificate is self-signed). */
  readonly context: BrowserContext;
}

/**
 * Registers the hooks of the enclosing describe block: before its tests the service and
 * Chromium (the suite is pending, said once and loudly, without Chromium), a fresh context for
 * each test, and after them both closed. Answers the suite, filled in by the hooks.
 */
export const browserSuite = (): BrowserSuite => {
  const suite: { api?: Api; browser?: Browser; context?: BrowserContext } = {};
  before(async function () {
    if (!chromiumAvailable()) {
      this.skip();
    }
    suite.api = await startApi();
    suite.browser = await launchChromium();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.api?.close();
  });
  beforeEach(async () => {
    if (suite.browser === undefined) throw new Error('no browser');
    suite.context = await suite.browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterEach(async () => {
    await suite.context?.close();
  });
  return suite as BrowserSuite;
};
