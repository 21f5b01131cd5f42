/**
 * A user's first sign-on to the demo app through a customer's SAML IdP, in the Keycloak suite's browser: she types
 * her address at Keycloak's identity-first login, is sent to the IdP by the organization's domain, signs in there,
 * and comes back through the SAML broker, answering what Keycloak's first broker login asks on the way (the profile
 * review, the proof of her address that §13 requires).
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { demoAppTokens, type Tokens } from './demoAppSession.ts';
import { proveEmailIfAsked } from './emailProof.ts';
import type { TestBrowser } from './keycloakBrowser.ts';

const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');
const VERIFY_ASKED = /verify your email/i;

/** A SAML IdP as a person meets it in the browser. */
export type SamlIdpLogin = {
  /** Found only on the IdP's login page. */
  form(page: Page): Locator;
  /** Signs `email` in there. */
  signIn(page: Page, email: string): Promise<void>;
};

/**
 * Starts the demo app's sign-in, types `email` at Keycloak's identity-first login and, sent on to the IdP, signs in
 * there unless its session is still open; `screenshot` is taken of the IdP's login page.
 */
export async function signInAtSamlIdp(browser: TestBrowser, demoAppUrl: string, email: string, idp: SamlIdpLogin, screenshot?: string): Promise<void> {
  const { page } = browser;
  await page.goto(demoAppUrl);
  await page.evaluate(() => sessionStorage.removeItem('tokens'));
  await page.reload();
  await page.fill('#organization', '');
  await page.click('#sign-in');
  await page.locator('#username').waitFor();
  await page.fill('#username', email);
  await page.click('[type=submit]');
  const atIdp = idp.form(page);
  const back = page.locator('#access-claims:not(:empty)');
  await atIdp.or(back).first().waitFor({ timeout: 30_000 });
  if (!(await atIdp.count())) return;
  if (screenshot) {
    await mkdir(screenshots, { recursive: true });
    await page.screenshot({ path: resolve(screenshots, screenshot) });
  }
  await idp.signIn(page, email);
}

/**
 * The first sign-on of `email` through `idp`, to the demo app's tokens; `names` are what she gives at the profile
 * review if the assertion's attributes did not fill them. Screenshots of each step are `<prefix>-NN-<step>.png` under
 * .data/test/screenshots.
 */
export async function firstSamlSignOn(
  browser: TestBrowser,
  demoAppUrl: string,
  email: string,
  idp: SamlIdpLogin,
  names: { firstName: string; lastName: string },
  prefix: string,
): Promise<Tokens> {
  const { page } = browser;
  const shot = async (step: string) => {
    await mkdir(screenshots, { recursive: true });
    await page.screenshot({ path: resolve(screenshots, `${prefix}-${step}.png`), fullPage: true });
  };
  await signInAtSamlIdp(browser, demoAppUrl, email, idp, `${prefix}-01-idp.png`);
  const claims = page.locator('#access-claims:not(:empty)');
  const landed = claims.or(page.locator('#firstName')).or(page.getByText(VERIFY_ASKED)).first();
  await landed.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
    await shot('failed');
    throw error;
  });
  if (await page.locator('#firstName').isVisible()) {
    await shot('02-review-profile');
    if (!(await page.inputValue('#firstName'))) await page.fill('#firstName', names.firstName);
    if (!(await page.inputValue('#lastName'))) await page.fill('#lastName', names.lastName);
    await page.click('[type=submit]');
  }
  await proveEmailIfAsked(page, email, () => signInAtSamlIdp(browser, demoAppUrl, email, idp), (step) => shot(step === 'asked' ? '03-verify-email' : '03b-verified'));
  const tokens = await demoAppTokens(page);
  await shot('04-demo-app');
  return tokens;
}
