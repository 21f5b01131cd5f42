import type { Orm } from '../store/orm.ts';
import type { Settings } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { CheckResult } from './readinessChecks.ts';

/** What the HTTP layer is built from; tests and the entry point assemble it the same way. */
export interface AppDependencies {
  settings: Settings;
  orm: Orm;
  log: Logger;
  /** Runs the readiness checks; `store` decides the status code, the others are reported. */
  readiness: () => Promise<Record<string, CheckResult>>;
}
