import type { Logger } from './logger.ts';

/** SIGTERM/SIGINT run the given steps once, in order, then exit; a second signal exits at once. */
export function shutdownOnSignals(log: Logger, steps: Array<() => Promise<void>>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'shutting down');
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        log.error({ err: error }, 'shutdown step failed');
      }
    }
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
