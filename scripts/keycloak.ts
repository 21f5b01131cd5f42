/**
 * `npm run keycloak`: a real Keycloak 26 for development on 127.0.0.1 with the tenant-registry realm and extension,
 * an SMTP catcher that stores the realm's e-mails as files, and the demo app a person signs in to (its tokens carry
 * the registry's claims). Prints the settings that point the service at it; with them, an invite's link ends in the
 * demo app. Installs Keycloak (Maven Central) into .tools/ on first use. Stop with Ctrl-C; nothing persists between
 * starts.
 *
 * Environment: KEYCLOAK_PORT (default 8180), KEYCLOAK_SMTP_PORT (default: a free port), KEYCLOAK_MAIL_DIR
 * (default .data/keycloak/mail), DEMO_APP_PORT (default 8181), TENANT_REGISTRY_URL (where the claims mapper calls
 * the registry; default http://127.0.0.1:8080), and the client secrets TENANT_REGISTRY_ADMIN_CLIENT_SECRET,
 * TENANT_REGISTRY_CALLER_CLIENT_SECRET, TENANT_REGISTRY_CALLER_NO_AUDIENCE_CLIENT_SECRET,
 * TENANT_REGISTRY_CLAIMS_MAPPER_CLIENT_SECRET, TENANT_REGISTRY_PRODUCT_CLIENT_SECRET (default: random per start).
 */
import { resolve } from 'node:path';
import { createLogger } from '../platform/logger.ts';
import { startDemoApp, type RunningDemoApp } from '../platform/keycloakDemoApp.ts';
import { ADMIN_CLIENT_ID, CALLER_CLIENT_ID, DEMO_APP_CLIENT_ID, startKeycloak, type RunningKeycloak } from '../platform/keycloakServer.ts';
import { shutdownOnSignals } from '../platform/shutdownOnSignals.ts';
import { startSmtpCatcher } from '../platform/smtpCatcher.ts';

const env = process.env;
const dataDir = resolve(import.meta.dirname, '..', '.data', 'keycloak');
const log = createLogger(env.LOG_LEVEL ?? 'info', 'keycloak');
const port = (name: string): number | undefined => {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new Error(`${name} must be a port number`);
  return Number(value);
};

const smtp = await startSmtpCatcher({ dir: env.KEYCLOAK_MAIL_DIR ?? resolve(dataDir, 'mail'), port: port('KEYCLOAK_SMTP_PORT') });
let keycloak: RunningKeycloak;
try {
  keycloak = await startKeycloak(
    {
      port: port('KEYCLOAK_PORT') ?? 8180,
      smtp,
      secrets: {
        admin: env.TENANT_REGISTRY_ADMIN_CLIENT_SECRET,
        caller: env.TENANT_REGISTRY_CALLER_CLIENT_SECRET,
        callerNoAudience: env.TENANT_REGISTRY_CALLER_NO_AUDIENCE_CLIENT_SECRET,
        claimsMapper: env.TENANT_REGISTRY_CLAIMS_MAPPER_CLIENT_SECRET,
        product: env.TENANT_REGISTRY_PRODUCT_CLIENT_SECRET,
      },
      registryUrl: env.TENANT_REGISTRY_URL?.trim() || undefined,
      logFile: resolve(dataDir, 'keycloak.log'),
    },
    log,
  );
} catch (err) {
  await smtp.close();
  throw err;
}
let demoApp: RunningDemoApp;
try {
  demoApp = await startDemoApp({ realmUrl: keycloak.realmUrl, port: port('DEMO_APP_PORT') ?? 8181 });
} catch (err) {
  await keycloak.stop();
  await smtp.close();
  throw err;
}
shutdownOnSignals(log, [() => demoApp.close(), () => keycloak.stop(), () => smtp.close()]);

console.log(`
Keycloak ${keycloak.version} is running (Ctrl-C stops it; its log: ${keycloak.logFile}).

Point the service at it (an invite's link then continues into the demo app):
  IDP_ADMIN_URL=${keycloak.url} IDP_ADMIN_REALM=${keycloak.realm} IDP_ADMIN_CLIENT_ID=${ADMIN_CLIENT_ID} IDP_ADMIN_CLIENT_SECRET=${keycloak.secrets.admin} IDP_INVITE_CLIENT_ID=${DEMO_APP_CLIENT_ID} IDP_INVITE_REDIRECT_URI=${demoApp.url} npm start
Require service tokens (add to the line above):
  AUTH_ENABLED=true AUTH_ISSUER=${keycloak.realmUrl} PUBLIC_BASE_URL=http://127.0.0.1:8080
  a token: curl -s -u ${CALLER_CLIENT_ID}:${keycloak.secrets.caller} -d grant_type=client_credentials ${keycloak.realmUrl}/protocol/openid-connect/token
Demo app: ${demoApp.url}  (sign in as an invited admin; its tokens carry the registry's claims, asked from ${env.TENANT_REGISTRY_URL?.trim() || 'http://127.0.0.1:8080'})
Admin console: ${keycloak.url}/admin/  (user ${keycloak.bootstrapAdmin.username}, password ${keycloak.bootstrapAdmin.password})
E-mails sent by the realm: ${smtp.dir}/*.eml (SMTP on ${smtp.host}:${smtp.port})
`);
