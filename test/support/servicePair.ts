import { loadAuthConfig } from '../../api/auth/authConfig.ts';
import { startOidcIssuer, type OidcIssuer } from './oidcIssuer.ts';
import { startTestService, type TestService } from './testService.ts';

/**
 * The test service twice against the run's PostgreSQL: as it starts by default (AUTH_ENABLED off), and with
 * AUTH_ENABLED trusting a loopback OIDC issuer, whose tokens a test signs for the scopes or tenant bindings it checks.
 */
export interface ServicePair {
  service: TestService;
  authenticated: TestService;
  issuer: OidcIssuer;
  close(): Promise<void>;
}

export async function startServicePair(): Promise<ServicePair> {
  const service = await startTestService();
  const issuer = await startOidcIssuer();
  const authenticated = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
  return {
    service,
    authenticated,
    issuer,
    async close() {
      await service.close();
      await authenticated.close();
      await issuer.close();
    },
  };
}
