import { DEMO_APP_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { keycloakAdmin } from './keycloakAdmin.ts';

/**
 * Changes settings of the demo app's tenant-registry-claims mapper (or another client's) through Keycloak's admin API.
 * The realm's files share it: each points it at its own registry (the mapper's claims, and the invitation links the
 * extension checks).
 */
export async function configureDemoAppMapper(changes: Record<string, string>, clientId = DEMO_APP_CLIENT_ID): Promise<void> {
  const admin = await keycloakAdmin();
  const [client] = await admin.clients.find({ clientId });
  const mappers = await admin.clients.listProtocolMappers({ id: client!.id! });
  const mapper = mappers.find((m) => m.protocolMapper === 'tenant-registry-claims');
  if (!mapper) throw new Error(`${clientId} has no tenant-registry-claims mapper`);
  await admin.clients.updateProtocolMapper({ id: client!.id!, mapperId: mapper.id! }, { ...mapper, config: { ...mapper.config, ...changes } });
}
