/**
 * A real Keycloak on loopback for development and the Keycloak test suite: `kc.sh start-dev` of the project's own
 * distribution (keycloakDistribution.ts), the realm imported from keycloak/realm-tenant-registry.json at every start.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureKeycloakDistribution, KEYCLOAK_VERSION } from './keycloakDistribution.ts';
import { freePort } from './freePort.ts';
import type { Logger } from './logger.ts';

export const REALM_FILE = resolve(import.meta.dirname, '..', 'keycloak', 'realm-tenant-registry.json');
/** Names fixed by the realm file. */
export const KEYCLOAK_REALM = 'tenant-registry';
export const ADMIN_CLIENT_ID = 'tenant-registry-admin';
export const CALLER_CLIENT_ID = 'tenant-registry-caller';
export const CALLER_NO_AUDIENCE_CLIENT_ID = 'tenant-registry-caller-no-audience';
/** The service client the tenant-registry-claims mapper authenticates to the registry with. */
export const CLAIMS_MAPPER_CLIENT_ID = 'tenant-registry-claims-mapper';
/** A product's client: it verifies API keys (scope keys:verify) and nothing else. */
export const PRODUCT_CLIENT_ID = 'tenant-registry-product';
/** The public PKCE client a person signs in to (platform/keycloakDemoApp.ts); its tokens carry the registry's claims. */
export const DEMO_APP_CLIENT_ID = 'tenant-registry-demo-app';
/** A second public PKCE client like the demo app's: another product's, which a tenant may not be entitled to. */
export const DEMO_REPORTS_CLIENT_ID = 'tenant-registry-demo-reports';

/** The realm file takes the clients' secrets from the environment of Keycloak (placeholders), so none is committed. */
export type RealmClientSecrets = { admin: string; caller: string; callerNoAudience: string; claimsMapper: string; product: string };

export type KeycloakServerOptions = {
  /** HTTP port on 127.0.0.1; default: a free one. */
  port?: number;
  /** Where the realm's e-mails go (an SMTP catcher on loopback). */
  smtp: { host: string; port: number };
  /** Default: random secrets, made for this start. */
  secrets?: Partial<RealmClientSecrets>;
  /** Where the demo app's claims mapper finds the registry (the realm's default: http://127.0.0.1:8080). */
  registryUrl?: string;
  /** The master realm's bootstrap administrator; default: user `admin` with a random password. */
  bootstrapAdmin?: { username: string; password: string };
  /** Keycloak's own output goes here (it is long); the error of a failed start quotes its end. */
  logFile: string;
  /** The first start also runs Keycloak's build step (a minute or more on two cores). */
  startTimeoutMs?: number;
};

export type RunningKeycloak = {
  version: string;
  /** Base URL, e.g. http://127.0.0.1:8180 (what IDP_ADMIN_URL takes). */
  url: string;
  realm: string;
  /** The realm's issuer URL (what AUTH_ISSUER takes). */
  realmUrl: string;
  secrets: RealmClientSecrets;
  bootstrapAdmin: { username: string; password: string };
  logFile: string;
  stop(): Promise<void>;
};

const DEFAULT_START_TIMEOUT_MS = 300_000;
const STOP_GRACE_MS = 20_000;
const secret = () => randomBytes(24).toString('base64url');

export async function startKeycloak(options: KeycloakServerOptions, log: Logger): Promise<RunningKeycloak> {
  const home = await ensureKeycloakDistribution(log);
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const secrets: RealmClientSecrets = {
    admin: options.secrets?.admin ?? secret(),
    caller: options.secrets?.caller ?? secret(),
    callerNoAudience: options.secrets?.callerNoAudience ?? secret(),
    claimsMapper: options.secrets?.claimsMapper ?? secret(),
    product: options.secrets?.product ?? secret(),
  };
  const bootstrapAdmin = options.bootstrapAdmin ?? { username: 'admin', password: secret() };

  // --import-realm reads <home>/data/import; with the in-memory database the realm is imported at every start,
  // so the realm is always exactly what the repository says.
  const importDir = join(home, 'data', 'import');
  await mkdir(importDir, { recursive: true });
  await copyFile(REALM_FILE, join(importDir, 'realm-tenant-registry.json'));
  await mkdir(dirname(options.logFile), { recursive: true });
  const output = createWriteStream(options.logFile, { flags: 'w' });

  const args = [
    'start-dev',
    // dev-mem: nothing persists between starts. A build-time option: keep it identical on every start, or
    // start-dev re-runs Keycloak's build step.
    '--db=dev-mem',
    '--http-host=127.0.0.1',
    `--http-port=${port}`,
    // A fixed hostname: links and token issuers name this URL even for requests that come through a proxy.
    `--hostname=${url}`,
    '--import-realm',
  ];
  const child = spawn(join(home, 'bin', 'kc.sh'), args, {
    cwd: home,
    // Its own process group: kc.sh runs Keycloak's build step as a child before it execs the server.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      KC_BOOTSTRAP_ADMIN_USERNAME: bootstrapAdmin.username,
      KC_BOOTSTRAP_ADMIN_PASSWORD: bootstrapAdmin.password,
      TENANT_REGISTRY_ADMIN_CLIENT_SECRET: secrets.admin,
      TENANT_REGISTRY_CALLER_CLIENT_SECRET: secrets.caller,
      TENANT_REGISTRY_CALLER_NO_AUDIENCE_CLIENT_SECRET: secrets.callerNoAudience,
      TENANT_REGISTRY_CLAIMS_MAPPER_CLIENT_SECRET: secrets.claimsMapper,
      TENANT_REGISTRY_PRODUCT_CLIENT_SECRET: secrets.product,
      ...(options.registryUrl ? { TENANT_REGISTRY_URL: options.registryUrl } : {}),
      TENANT_REGISTRY_SMTP_HOST: options.smtp.host,
      TENANT_REGISTRY_SMTP_PORT: String(options.smtp.port),
      // Keycloak sizes its heap at 70 % of the machine's memory by default; a development server needs far less.
      JAVA_OPTS_KC_HEAP: process.env.JAVA_OPTS_KC_HEAP ?? '-Xms64m -Xmx1g',
    },
  });
  // Both into one file, which stop() closes: the first stream to end must not end it under the other.
  child.stdout.pipe(output, { end: false });
  child.stderr.pipe(output, { end: false });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  // 'close' comes after 'exit' once the output is drained into the log file too.
  const closed = new Promise<void>((resolveClosed) => child.once('close', () => resolveClosed()));
  // Should this process end without stop(), take the server along rather than leave it running unowned.
  const killOnExit = () => signalGroup(child.pid, 'SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.off('exit', killOnExit);
    // The whole group, also when kc.sh itself is gone: a build-step child could still hold the output open.
    signalGroup(child.pid, 'SIGTERM');
    const forced = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), STOP_GRACE_MS);
    await closed;
    clearTimeout(forced);
    await new Promise<void>((resolveEnd) => output.end(() => resolveEnd()));
  };

  const realmUrl = `${url}/realms/${KEYCLOAK_REALM}`;
  const started = Date.now();
  const deadline = started + (options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  // The realm's discovery document answers once the server listens and the realm import is done.
  while (!(await answers(`${realmUrl}/.well-known/openid-configuration`))) {
    if (exited || Date.now() > deadline) {
      const reason = exited ? `exited with code ${child.exitCode}` : `did not serve realm ${KEYCLOAK_REALM} in time`;
      await stop();
      throw new Error(`Keycloak ${KEYCLOAK_VERSION} ${reason}; the end of ${options.logFile}:\n${await tail(options.logFile)}`);
    }
    await sleep(500);
  }
  log.info({ url, seconds: Math.round((Date.now() - started) / 1000) }, 'Keycloak is up');
  return { version: KEYCLOAK_VERSION, url, realm: KEYCLOAK_REALM, realmUrl, secrets, bootstrapAdmin, logFile: options.logFile, stop };
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal); // the group this module created for the server (detached: true)
  } catch {
    // already gone
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function tail(file: string, lines = 30): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-lines).join('\n');
}
