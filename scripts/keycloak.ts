/**
 * `npm run keycloak`: a real Keycloak 26 for development on 127.0.0.1 with the tenant-registry realm and extension,
 * and an SMTP catcher that stores the realm's e-mails as files. Prints the settings that point the service at it.
 * Installs Keycloak (Maven Central) into .tools/ on first use. Stop with Ctrl-C; nothing persists between starts.
 *
 * Environment: KEYCLOAK_PORT (default 8180), KEYCLOAK_SMTP_PORT (default: a free port), KEYCLOAK_MAIL_DIR
 * (default .data/keycloak/mail), and the client secrets TENANT_REGISTRY_ADMIN_CLIENT_SECRET,
 * TENANT_REGISTRY_CALLER_CLIENT_SECRET, TENANT_REGISTRY_CALLER_NO_AUDIENCE_CLIENT_SECRET (default: random per start).
 */
import { resolve } from 'node:path';
import { createLogger } from '../platform/logger.ts';
import { ADMIN_CLIENT_ID, CALLER_CLIENT_ID, startKeycloak, type RunningKeycloak } from '../platform/keycloakServer.ts';
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
      },
      logFile: resolve(dataDir, 'keycloak.log'),
    },
    log,
  );
} catch (err) {
  await smtp.close();
  throw err;
}
shutdownOnSignals(log, [() => keycloak.stop(), () => smtp.close()]);

console.log(`
Keycloak ${keycloak.version} is running (Ctrl-C stops it; its log: ${keycloak.logFile}).

Point the service at it:
  IDP_ADMIN_URL=${keycloak.url} IDP_ADMIN_REALM=${keycloak.realm} IDP_ADMIN_CLIENT_ID=${ADMIN_CLIENT_ID} IDP_ADMIN_CLIENT_SECRET=${keycloak.secrets.admin} npm start
Require service tokens (add to the line above):
  AUTH_ENABLED=true AUTH_ISSUER=${keycloak.realmUrl}
  a token: curl -s -u ${CALLER_CLIENT_ID}:${keycloak.secrets.caller} -d grant_type=client_credentials ${keycloak.realmUrl}/protocol/openid-connect/token
Admin console: ${keycloak.url}/admin/  (user ${keycloak.bootstrapAdmin.username}, password ${keycloak.bootstrapAdmin.password})
E-mails sent by the realm: ${smtp.dir}/*.eml (SMTP on ${smtp.host}:${smtp.port})
`);
