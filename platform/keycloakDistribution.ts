/**
 * The project's own Keycloak: the server distribution from Maven Central, unpacked into .tools/keycloak-<version>,
 * with the project's extension (keycloak/extension) built by Maven and placed in its providers/ folder.
 * Used by `npm run keycloak` and the Keycloak test suite; the service itself never imports this.
 */
import { execFile } from 'node:child_process';
import { access, copyFile, mkdir, readdir, readFile, rename, rm, stat, chmod } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from './logger.ts';

const run = promisify(execFile);
const projectRoot = resolve(import.meta.dirname, '..');

/**
 * Pinned so every machine runs the same server. The extension compiles against this very version (it uses server
 * internals), and 26.7 still runs on Java 17, the JDK these machines have (checked: 26.7.3 starts on OpenJDK 17.0.15).
 */
export const KEYCLOAK_VERSION = '26.7.3';
const DIST_ARTIFACT = `org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION}:zip`;
/** Pinned: without a version Maven resolves "latest" from the repository metadata on every run. */
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const MINIMUM_JAVA = 17;

const toolsDir = join(projectRoot, '.tools');
export const extensionDir = join(projectRoot, 'keycloak', 'extension');
const EXTENSION_JAR = 'tenant-registry-keycloak-extension.jar';

const exists = (path: string) => access(path).then(() => true, () => false);

class ToolMissing extends Error {}

/** Runs a tool, turning a failure into an Error that carries the end of its output (Maven says why there). */
async function tool(command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (err) {
    const { stdout = '', stderr = '', code } = err as { stdout?: string; stderr?: string; code?: unknown };
    if (code === 'ENOENT') throw new ToolMissing(`${command} is not installed (Keycloak needs a JDK ${MINIMUM_JAVA}+ and Maven)`);
    const tail = `${stdout}${stderr}`.trim().split('\n').slice(-25).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed:\n${tail}`);
  }
}

/** Maven as the machine configures it (settings.xml mirrors and proxies apply), quiet and without colour codes. */
const maven = (args: string[], cwd?: string) => tool('mvn', ['-B', '-q', '-Dstyle.color=never', ...args], cwd);

/** Keycloak needs Java 17 or newer; kc.sh takes JAVA_HOME, else `java` on the PATH. */
export async function checkJava(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const java = env.JAVA_HOME ? join(env.JAVA_HOME, 'bin', 'java') : 'java';
  const output = await tool(java, ['-version']);
  const major = Number(/version "(?:1\.)?(\d+)/.exec(output)?.[1]);
  if (!(major >= MINIMUM_JAVA)) {
    throw new Error(`Keycloak ${KEYCLOAK_VERSION} needs Java ${MINIMUM_JAVA} or newer; ${java} is: ${output.split('\n')[0]}`);
  }
  return output.split('\n')[0] ?? '';
}

/** .tools/keycloak-<version>, downloaded and unpacked on first use; its bin/kc.sh marks a complete installation. */
async function ensureServer(log: Logger): Promise<string> {
  const home = join(toolsDir, `keycloak-${KEYCLOAK_VERSION}`);
  if (await exists(join(home, 'bin', 'kc.sh'))) return home;

  log.info({ artifact: DIST_ARTIFACT }, 'installing Keycloak from Maven Central');
  const staging = join(toolsDir, `.keycloak-${KEYCLOAK_VERSION}-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    // dependency:copy goes through the machine's Maven settings and verifies the repository's checksums.
    await maven(['--strict-checksums', `${DEPENDENCY_PLUGIN}:copy`, `-Dartifact=${DIST_ARTIFACT}`, `-DoutputDirectory=${staging}`]);
    const zip = join(staging, `keycloak-quarkus-dist-${KEYCLOAK_VERSION}.zip`);
    await unpack(zip, staging);
    await rm(zip);
    // The zip holds one folder, keycloak-<version>; moving it into place last keeps a half-unpacked copy invisible.
    await rename(join(staging, `keycloak-${KEYCLOAK_VERSION}`), home).catch(async (err: unknown) => {
      if (!(await exists(join(home, 'bin', 'kc.sh')))) throw err; // a concurrent installer finished first: fine
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return home;
}

/** unzip keeps the scripts' execute bits; the JDK's `jar` (always beside javac) is the fallback. */
async function unpack(zip: string, into: string): Promise<void> {
  try {
    await tool('unzip', ['-q', zip, '-d', into]);
  } catch (err) {
    if (!(err instanceof ToolMissing)) throw err;
    await tool('jar', ['xf', zip], into);
    const bin = join(into, `keycloak-${KEYCLOAK_VERSION}`, 'bin');
    for (const script of (await readdir(bin)).filter((name) => name.endsWith('.sh'))) await chmod(join(bin, script), 0o755);
  }
}

/**
 * Newest modification time under the extension's sources and pom, folders included (removing a file, as switching
 * branches does, changes only its folder's time): the jar is rebuilt only when it is older.
 */
async function newestSourceTime(dir: string): Promise<number> {
  let newest = (await stat(dir)).mtimeMs;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'target') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestSourceTime(path) : (await stat(path)).mtimeMs);
  }
  return newest;
}

/** Builds keycloak/extension (Maven, dependencies from Maven Central) when its jar is missing or stale. */
export async function buildExtension(log: Logger): Promise<string> {
  const jar = join(extensionDir, 'target', EXTENSION_JAR);
  const built = await stat(jar).then((s) => s.mtimeMs, () => 0);
  if (built > (await newestSourceTime(extensionDir))) return jar;
  log.info({ keycloak: KEYCLOAK_VERSION }, 'building the tenant-registry Keycloak extension with Maven');
  // clean: classes and service files of sources since removed must not linger in the jar.
  await maven(['clean', 'package', `-Dkeycloak.version=${KEYCLOAK_VERSION}`], extensionDir);
  return jar;
}

/**
 * The Keycloak home folder, ready for `kc.sh start-dev`: server installed, extension current in providers/.
 * Copying the jar only when it changed matters: a changed provider makes the next start re-run Keycloak's build
 * step (about a minute).
 */
export async function ensureKeycloakDistribution(log: Logger): Promise<string> {
  await checkJava();
  const home = await ensureServer(log);
  const jar = await buildExtension(log);
  const installed = join(home, 'providers', EXTENSION_JAR);
  const [fresh, current] = await Promise.all([readFile(jar), readFile(installed).catch(() => undefined)]);
  if (!current?.equals(fresh)) await copyFile(jar, installed);
  return home;
}
