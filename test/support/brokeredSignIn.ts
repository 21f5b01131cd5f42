import type { TestBrowser } from './keycloakBrowser.ts';

/**
 * Starts the demo app's sign-in in a browser without a session and sends it straight to the realm's identity provider
 * `alias` (kc_idp_hint), as an organization's domain redirect would: Keycloak answers with its request to that IdP.
 */
export async function startBrokeredSignIn(browser: TestBrowser, demoAppUrl: string, alias: string): Promise<void> {
  const { page } = browser;
  await browser.context.clearCookies();
  await page.goto(demoAppUrl);
  await page.evaluate(() => sessionStorage.removeItem('tokens'));
  await page.reload();
  await page.fill('#organization', '');
  await page.click('#sign-in');
  await page.waitForURL((url) => url.pathname.endsWith('/protocol/openid-connect/auth'));
  const hinted = new URL(page.url());
  hinted.searchParams.set('kc_idp_hint', alias);
  await page.goto(hinted.href);
}
