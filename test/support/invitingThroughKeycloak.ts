import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { DEMO_APP_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { startActorStack, type ActorStack } from './actorStack.ts';
import { configureDemoAppMapper } from './demoAppMapper.ts';
import { launchTestBrowser, type TestBrowser } from './keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from './keycloakContext.ts';

/**
 * The registry inviting people through the run's Keycloak: its actor stack, whose invitation links return to the demo
 * app, the demo app's claims mapper pointed at this registry (the extension checks every link with, and reports every
 * acceptance to, the registry the mapper names), and a browser to follow the links in.
 */
export interface InvitingThroughKeycloak {
  stack: ActorStack;
  demoApp: RunningDemoApp;
  browser: TestBrowser;
  close(): Promise<void>;
}

export async function startInvitingThroughKeycloak(): Promise<InvitingThroughKeycloak> {
  const demoApp = await startDemoApp({ realmUrl: keycloakContext().realmUrl });
  const stack = await startActorStack({
    settings: { PROVISIONING_WAIT_MS: 20_000 },
    idp: () => new KeycloakIdentityProvider(keycloakSettings({ inviteClientId: DEMO_APP_CLIENT_ID, inviteRedirectUri: demoApp.url })),
  });
  await configureDemoAppMapper({ 'registry.url': stack.service.baseUrl, 'timeout.ms': '5000' });
  const browser = await launchTestBrowser();
  return {
    stack,
    demoApp,
    browser,
    async close() {
      await browser.close();
      await stack.close();
      await demoApp.close();
    },
  };
}
