import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
