import { keycloakContext } from './keycloakContext.ts';

/** A client-credentials access token of one of the realm's clients, as a calling service would get it. */
export async function serviceAccountToken(clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${keycloakContext().realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`token request for ${clientId} answered ${response.status}`);
  return body.access_token;
}
