import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM } from './chromium.ts';

/**
 * A real headless browser for the Keycloak suite: the machine's Chromium (Debian's `chromium`; .ci/keycloak-tests
 * installs it) driven by playwright-core, with a fresh profile per launch and nothing that calls home.
 */
export type TestBrowser = { page: Page; context: BrowserContext; close(): Promise<void> };


export async function launchTestBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'tenant-registry-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1180, height: 820 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Pages of a loaded two-core machine: Keycloak's first render of a theme can take seconds.
  context.setDefaultTimeout(30_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
