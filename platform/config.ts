import { resolve } from 'node:path';
import { z } from 'zod';

const projectRoot = resolve(import.meta.dirname, '..');

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
const integer = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Every setting of the service with its default; README's configuration table mirrors this. */
const Settings = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Trust X-Forwarded-For for the audit log's source_ip; only behind a proxy that sets it. */
  TRUST_PROXY: z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalText,
  DATA_DIR: z.string().default(resolve(projectRoot, '.data')),
  EMBEDDED_PG_PORT: integer(54329),
  DATABASE_POOL_MAX: integer(10),
  BODY_LIMIT_BYTES: integer(64 * 1024),
  SHUTDOWN_GRACE_MS: integer(10_000),
  API_KEY_LAST_USED_RESOLUTION_SECONDS: integer(60),
});
export type Settings = z.infer<typeof Settings>;

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = Settings.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  return parsed.data;
}
