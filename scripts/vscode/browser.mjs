// Debian chromium driven by playwright-core, and the workbench URLs code-server understands.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { aptInstall } from './build.mjs';

export { workbenchUrl } from './helpers.mjs';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
export const VIEWPORT = { width: 1400, height: 900 };

/** The chromium binary: $CHROMIUM, else Debian's /usr/bin/chromium (installed with apt-get when missing). */
export function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (existsSync(p)) return p;
  aptInstall(['chromium']);
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error('chromium not found: install the Debian package `chromium` or set CHROMIUM=/path/to/chrome');
}

/** Launches headless chromium; use browser.newContext({ viewport: VIEWPORT }) per scenario. */
export function launchBrowser() {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}

/**
 * Newer workbenches (VS Code >= ~1.10x) honour the payload's development options only with
 * developmentOptions.enableSmokeTestDriver; set it in the page's workbench configuration before
 * workbench.js reads it. Harmless with code-server 4.100.3, which honours the payload anyway.
 */
export async function enableDevPayload(page) {
  /* global document, MutationObserver -- this function runs in the page */
  await page.addInitScript(() => {
    const patch = () => {
      const el = document.getElementById('vscode-workbench-web-configuration');
      if (!el) return false;
      const cfg = JSON.parse(el.getAttribute('data-settings'));
      cfg.developmentOptions = Object.assign({}, cfg.developmentOptions, { enableSmokeTestDriver: true });
      el.setAttribute('data-settings', JSON.stringify(cfg));
      return true;
    };
    new MutationObserver((_, obs) => { if (patch()) obs.disconnect(); }).observe(document, { childList: true, subtree: true });
  });
}
