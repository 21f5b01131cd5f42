/**
 * Runs `task` every `intervalMs`, never two at once (a run that overlaps the next tick skips it), without keeping
 * the process alive; `stop` waits for a run in progress. A failed run is reported and the next tick tries again.
 */
export function runPeriodically(intervalMs: number, task: () => Promise<void>, onError: (error: unknown) => void): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = task()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
