import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { startActorStack, type ActorStack } from './actorStack.ts';
import { configureDemoAppMapper } from './demoAppMapper.ts';
import { startDnsServer, type DnsServer } from './dnsServer.ts';
import { launchTestBrowser, type TestBrowser } from './keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from './keycloakContext.ts';

/**
 * What a SAML sign-on through the run's real Keycloak needs around the IdP: a DNS server for the tenant's domain
 * proofs, the registry's stack on Keycloak (metadata URLs at loopback allowed, as the test IdPs are there), the
 * demo app with its claims mapper pointed at that stack, and a browser.
 */
export type SamlSignOnRig = { dns: DnsServer; stack: ActorStack; demoApp: RunningDemoApp; browser: TestBrowser; close(): Promise<void> };

export async function startSamlSignOnRig(): Promise<SamlSignOnRig> {
  const dns = await startDnsServer();
  const demoApp = await startDemoApp({ realmUrl: keycloakContext().realmUrl });
  const stack = await startActorStack({
    settings: { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 500, SSO_ISSUER_ALLOWED_HOSTS: ['127.0.0.1'] },
    idp: () => new KeycloakIdentityProvider(keycloakSettings()),
  });
  await configureDemoAppMapper({ 'registry.url': stack.service.baseUrl, 'timeout.ms': '5000' });
  const browser = await launchTestBrowser();
  return {
    dns,
    stack,
    demoApp,
    browser,
    async close() {
      await browser.close();
      await stack.close();
      await demoApp.close();
      await dns.close();
    },
  };
}
