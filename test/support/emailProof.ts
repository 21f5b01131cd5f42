import type { Page } from 'playwright-core';
import { actionLinks, capturedMail } from './capturedMail.ts';
import { eventually } from './eventually.ts';

const VERIFY_ASKED = /verify your email/i;

/**
 * Keycloak asks a brokered account to verify its e-mail (§13: no identity provider's word makes it verified): the
 * link of the mail it sent, opened in the same browser, until the demo app shows the token's claims. If the link ends
 * a flow of its own, `signInAgain` starts another, the address now proven. `screenshot` is called at each step.
 */
export async function proveEmailIfAsked(
  page: Page,
  email: string,
  signInAgain: () => Promise<void>,
  screenshot: (step: 'asked' | 'verified') => Promise<unknown>,
): Promise<void> {
  const claims = page.locator('#access-claims:not(:empty)');
  await claims.or(page.getByText(VERIFY_ASKED)).first().waitFor({ timeout: 30_000 });
  if (await claims.count()) return;
  await screenshot('asked');
  const link = await eventually(async () => (await capturedMail(email)).flatMap(actionLinks).at(-1), 30_000, 'the verification e-mail');
  await page.goto(link);
  const proceed = page.getByRole('link', { name: /proceed/i });
  const back = page.getByRole('link', { name: /back to application/i });
  await claims.or(proceed).or(back).first().waitFor({ timeout: 30_000 });
  if (await proceed.count()) {
    await proceed.first().click();
    await claims.or(back).first().waitFor({ timeout: 30_000 });
  }
  if (await claims.count()) return;
  await screenshot('verified');
  await signInAgain();
  await claims.waitFor({ timeout: 30_000 });
}
