import { expect } from 'vitest';
import { keycloakAdmin } from './keycloakAdmin.ts';
import type { TestService } from './testService.ts';

/**
 * The registry's member for the Keycloak user `email` who signed in through the connection's identity provider
 * `alias`: her account is linked to that provider alone.
 */
export async function ssoSignedInMember(service: TestService, tenantId: string, email: string, alias: string): Promise<Record<string, unknown>> {
  const admin = await keycloakAdmin();
  const [user] = await admin.users.find({ email, exact: true });
  expect((await admin.users.listFederatedIdentities({ id: user!.id! })).map((link) => link.identityProvider)).toEqual([alias]);
  return (await service.request('GET', `/v1/tenants/${tenantId}/members/${user!.id}`)).body;
}
