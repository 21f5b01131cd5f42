import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startKeycloak, type RunningKeycloak } from '../../platform/keycloakServer.ts';
import { createLogger } from '../../platform/logger.ts';
import { startSmtpCatcher } from '../../platform/smtpCatcher.ts';
import type { KeycloakTestContext } from './keycloakContext.ts';

/**
 * KEYCLOAK_TESTS=1 only (vitest.config.ts): one real Keycloak for the run, with the repository's realm and extension,
 * and the SMTP catcher its e-mails go to. Installing or starting either failing throws here, which fails the run:
 * the Keycloak suite never turns into a skipped one.
 */
export default async function setup(project: TestProject) {
  const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'info', 'test-keycloak');
  const dataDir = resolve(import.meta.dirname, '../../.data/test');
  const mailDir = resolve(dataDir, `mail-${process.pid}`);
  const smtp = await startSmtpCatcher({ dir: mailDir });
  let keycloak: RunningKeycloak;
  try {
    keycloak = await startKeycloak(
      {
        smtp,
        // Kept after the run (overwritten by the next): the first place to look when a Keycloak test fails.
        logFile: resolve(dataDir, 'keycloak.log'),
        startTimeoutMs: Number(process.env.KEYCLOAK_START_TIMEOUT_MS ?? 300_000),
      },
      log,
    );
  } catch (err) {
    await smtp.close();
    throw err;
  }
  const context: KeycloakTestContext = {
    url: keycloak.url,
    realm: keycloak.realm,
    realmUrl: keycloak.realmUrl,
    secrets: keycloak.secrets,
    bootstrapAdmin: keycloak.bootstrapAdmin,
    mailDir,
  };
  project.provide('keycloak', context);
  return async () => {
    await keycloak.stop();
    await smtp.close();
    await rm(mailDir, { recursive: true, force: true });
  };
}
