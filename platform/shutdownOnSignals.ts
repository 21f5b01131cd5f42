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
    // The log is written asynchronously; exit only once its last lines (this one included) have left.
    await new Promise<void>((resolve) => {
      log.flush(() => resolve());
      setTimeout(resolve, 1_000).unref();
    });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
