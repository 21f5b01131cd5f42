/**
 * `npm run demo-app`: only the demo app (platform/keycloakDemoApp.ts), for a Keycloak started elsewhere; docker-compose
 * runs it this way. `npm run keycloak` starts one of its own beside its Keycloak.
 *
 * Environment: KEYCLOAK_REALM_URL (the realm's issuer URL, required: browsers and this server both use it),
 * DEMO_APP_PORT (default 8181), DEMO_APP_HOST (default 127.0.0.1; 0.0.0.0 in a container).
 */
import { startDemoApp } from '../platform/keycloakDemoApp.ts';
import { createLogger } from '../platform/logger.ts';
import { shutdownOnSignals } from '../platform/shutdownOnSignals.ts';

const env = process.env;
const log = createLogger(env.LOG_LEVEL ?? 'info', 'demo-app');
const realmUrl = env.KEYCLOAK_REALM_URL?.trim();
if (!realmUrl || !URL.canParse(realmUrl)) throw new Error('KEYCLOAK_REALM_URL must be the realm URL, e.g. http://127.0.0.1:8180/realms/tenant-registry');
const port = Number(env.DEMO_APP_PORT ?? 8181);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('DEMO_APP_PORT must be a port number');

const demoApp = await startDemoApp({ realmUrl, port, host: env.DEMO_APP_HOST?.trim() || '127.0.0.1' });
shutdownOnSignals(log, [() => demoApp.close()]);
log.info({ url: demoApp.url, realmUrl }, 'demo app is up');
