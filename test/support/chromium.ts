import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The machine's Chromium (Debian's `chromium`), which playwright-core drives: the browser suites' one browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium, installed when missing (Debian's package, as root, as .ci/keycloak-tests does). The suite's global set-up
 * calls it once before any file runs, so files running side by side never race for the package manager's lock.
 */
export async function chromiumInstalled(): Promise<string> {
  if (await access(CHROMIUM).then(() => true, () => false)) return CHROMIUM;
  await run('apt-get', ['update', '-qq']);
  await run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 });
  return CHROMIUM;
}
