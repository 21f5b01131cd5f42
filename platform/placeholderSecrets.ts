/** What .env.example ships in place of every secret; a deployment that copied it would run on a secret everyone knows. */
const PLACEHOLDER = /change[-_]?me|replace[-_]?with/i;

/** The settings that are secrets by their name: passwords, client secrets, keys, and URLs that carry a password. */
const SECRET_NAME = /(SECRET|PASSWORD|_KEYS|DATABASE_(MIGRATION_)?URL)$/;

/** The names (never the values) of the given settings that still hold a placeholder. */
export function settingsHoldingPlaceholders(env: NodeJS.ProcessEnv, names: readonly string[]): string[] {
  return names.filter((name) => PLACEHOLDER.test(env[name] ?? ''));
}

/** Every setting of `env` that is a secret by its name and still holds a placeholder. */
export function secretsHoldingPlaceholders(env: NodeJS.ProcessEnv): string[] {
  return settingsHoldingPlaceholders(env, Object.keys(env).filter((name) => SECRET_NAME.test(name)).sort());
}
