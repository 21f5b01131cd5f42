/**
 * The compose stack's preflight: exits 1, naming them, when any secret in its environment (a password, a client
 * secret, a key, a database URL) still holds the placeholder .env.example ships, so that no service of the stack
 * starts on a secret everyone knows (Keycloak's client secrets included, which the registry never reads itself).
 */
import { secretsHoldingPlaceholders } from '../platform/placeholderSecrets.ts';

const placeholders = secretsHoldingPlaceholders(process.env);
if (placeholders.length > 0) {
  console.error(`refusing to start: ${placeholders.join(', ')} still hold a placeholder (change-me…, REPLACE-WITH…); set each in .env to a secret of your own`);
  process.exit(1);
}
console.log('no placeholder secret found');
