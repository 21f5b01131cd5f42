import { configDefaults, defineConfig } from 'vitest/config';

/**
 * KEYCLOAK_TESTS=1 adds test/keycloak/, which runs against a real Keycloak that test/support/keycloakGlobalSetup.ts
 * installs and starts (a minute or two). Without it those files are left out of the run altogether, never skipped
 * inside: when asked for, they either run or fail.
 */
const keycloak = process.env.KEYCLOAK_TESTS === '1';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: keycloak ? configDefaults.exclude : [...configDefaults.exclude, 'test/keycloak/**'],
    globalSetup: [
      'test/support/keepFailingExitCode.ts',
      'test/support/globalSetup.ts',
      ...(keycloak ? ['test/support/keycloakGlobalSetup.ts'] : []),
    ],
    // The closing line after vitest's summary is the one CI reads for the run's counts.
    reporters: ['default', './test/support/closingLineReporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // The Keycloak files share one realm and reconfigure its demo app's claims mapper (which registry it asks): run
    // side by side, one file's tokens would ask the other's registry, and their mapper updates conflict.
    fileParallelism: !keycloak,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
