import type { Settings } from '../platform/config.ts';
import type { AuthConfig } from './auth/authConfig.ts';
import { temporalWithoutTlsWarning } from '../platform/temporal/temporalWithoutTlsWarning.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * What an operator must hear at start-up about a configuration that is fine on a laptop and dangerous anywhere else
 * (docs/security.md, the production checklist). Each is logged at warn, or error when the API (or Temporal, for its
 * warning) is open to a network.
 */
export function securityWarnings(settings: Settings, auth: AuthConfig): { level: 'warn' | 'error'; message: string }[] {
  const warnings: { level: 'warn' | 'error'; message: string }[] = [];
  const exposed = !LOOPBACK.has(settings.HOST);
  if (!auth.enabled) {
    warnings.push({
      level: exposed ? 'error' : 'warn',
      message: `AUTHENTICATION IS OFF (AUTH_ENABLED=false): anyone who reaches ${settings.HOST}:${settings.PORT} can create and change tenants, mint and revoke API keys and read the audit log. Turn it on anywhere but a developer's machine (docs/security.md).`,
    });
  } else if (!auth.requireScopes) {
    warnings.push({ level: 'warn', message: 'AUTH_REQUIRE_SCOPES=false: any valid token may call every route, the identity provider\'s mapper included (the codec endpoint still needs registry:admin).' });
  }
  if (!auth.enabled && settings.CODEC_ENDPOINT_ENABLED) {
    warnings.push({
      level: exposed ? 'error' : 'warn',
      message: `THE CODEC ENDPOINT IS OPEN WITHOUT AUTHENTICATION (CODEC_ENDPOINT_ENABLED=true, AUTH_ENABLED=false): anyone who reaches ${settings.HOST}:${settings.PORT} can decrypt Temporal payloads (invite links: the takeover of a customer's administrator account) and encrypt payloads the worker accepts, which undoes the codec's refusal of unencrypted ones. Only on a developer's machine (docs/security.md).`,
    });
  }
  const temporal = temporalWithoutTlsWarning(settings);
  if (temporal) warnings.push(temporal);
  if (settings.RATE_LIMIT_PER_SECOND === 0 && settings.RATE_LIMIT_VERIFY_PER_SECOND === 0 && exposed) {
    warnings.push({ level: 'warn', message: 'no rate limits are configured (RATE_LIMIT_*): one caller can take all of this replica.' });
  }
  return warnings;
}
