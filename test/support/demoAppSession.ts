import type { Page } from 'playwright-core';
import { DEMO_APP_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { keycloakContext } from './keycloakContext.ts';

/** The realm's demo app as a person uses it in the Keycloak suite: sign in (for an organization or none), refresh, read the tokens. */
export type Claims = Record<string, unknown>;
export type Tokens = { access_token: string; id_token: string; refresh_token: string };

/** The password the suite's users set (through an invite's UPDATE_PASSWORD, or created with it). */
export const TEST_PASSWORD = 'Correct-horse-battery-9';

export const claimsOf = (jwt: string): Claims => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Claims;

/** A refresh_token grant of the demo app (or another public client), as its "Refresh token" button sends it. */
export async function refresh(tokens: Tokens, clientId = DEMO_APP_CLIENT_ID): Promise<Tokens> {
  const { status, body } = await refreshAnswer(tokens, clientId);
  if (status !== 200) throw new Error(`refresh answered ${status} ${body.error}`);
  return body;
}

/** The token endpoint's answer to a refresh, refusals included. */
export async function refreshAnswer(
  tokens: Tokens,
  clientId = DEMO_APP_CLIENT_ID,
): Promise<{ status: number; body: Tokens & { error?: string; error_description?: string } }> {
  const response = await fetch(`${keycloakContext().realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token }),
  });
  return { status: response.status, body: (await response.json()) as Tokens & { error?: string; error_description?: string } };
}

/** The tokens the demo app holds once its page shows a token's claims (or fails with its error, or Keycloak refuses). */
export async function demoAppTokens(page: Page): Promise<Tokens> {
  await page.locator('#access-claims:not(:empty), #status:text-matches("^Error"), #kc-error-message').first().waitFor();
  if (await page.locator('#kc-error-message').isVisible()) throw new Error(`Keycloak refused: ${(await page.textContent('#kc-error-message'))?.trim()}`);
  const status = await page.textContent('#status');
  if (status?.startsWith('Error')) throw new Error(`demo app: ${status}`);
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('tokens') ?? 'null') as Tokens);
}

/** Signs in to the demo app at `demoAppUrl` for `organization` (or none); Keycloak asks for the password unless the session is open. */
export async function signIn(page: Page, demoAppUrl: string, email: string, organization = ''): Promise<Tokens> {
  await page.goto(demoAppUrl);
  // A fresh start of the page: the claims shown next are those of this sign-in.
  await page.evaluate(() => sessionStorage.removeItem('tokens'));
  await page.reload();
  await page.fill('#organization', organization);
  await page.click('#sign-in');
  // Keycloak's login page, or straight back to the demo app when the browser's session with Keycloak is open.
  const landed = page.locator('#username, #password, #access-claims:not(:empty), #status:text-matches("^Error")').first();
  await landed.waitFor();
  if (await page.locator('#username').isVisible()) {
    // Organizations make Keycloak's login identity-first: the username, then the password.
    await page.fill('#username', email);
    await page.click('[type=submit]');
    await page.locator('#password').waitFor();
  }
  if (await page.locator('#password').isVisible()) {
    await page.fill('#password', TEST_PASSWORD);
    await page.click('[type=submit]');
  }
  return demoAppTokens(page);
}
