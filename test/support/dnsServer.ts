import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../platform/freePort.ts';

const run = promisify(execFile);

/** A real DNS server on loopback for the domain checks: Debian's dnsmasq, serving the TXT records a test sets. */
export interface DnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  /** Sets the TXT values at a name (none: the name has no record) and restarts the server with them. */
  setTxt(name: string, values: string[]): Promise<void>;
  /** The resolver down (stopped) or back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}


/**
 * dnsmasq's binary, installed when missing. The suite's global set-up calls it once before any file runs, so files
 * running side by side never race for the package manager's lock.
 */
export async function dnsmasqPath(): Promise<string> {
  for (const path of ['/usr/sbin/dnsmasq', '/usr/bin/dnsmasq']) {
    if (await access(path).then(() => true, () => false)) return path;
  }
  // As the Keycloak suite installs Chromium: Debian's package (the binary only, no system service), as root.
  await run('apt-get', ['update', '-qq']);
  await run('apt-get', ['install', '-y', '-qq', 'dnsmasq-base'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return '/usr/sbin/dnsmasq';
}

/** Whether a DNS server answers on the port: any answer, a missing name's included, but not silence or a refusal. */
async function answers(port: number): Promise<boolean> {
  const resolver = new Resolver({ timeout: 300, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  try {
    await resolver.resolveTxt('probe.test');
    return true;
  } catch (error) {
    return ['ENOTFOUND', 'ENODATA'].includes((error as { code?: string }).code ?? '');
  }
}

export async function startDnsServer(): Promise<DnsServer> {
  const binary = await dnsmasqPath();
  const dir = await mkdtemp(join(tmpdir(), 'tenant-registry-dns-'));
  const config = join(dir, 'dnsmasq.conf');
  const port = await freePort();
  const records = new Map<string, string[]>();
  let child: ChildProcess | undefined;

  async function writeConfig(): Promise<void> {
    const lines = [
      `port=${port}`,
      'listen-address=127.0.0.1',
      'bind-interfaces',
      'no-resolv',
      'no-hosts',
      'no-poll',
      'user=root',
      // Every name is its own to answer: one without a record is NXDOMAIN, never a question for someone else.
      'local=/#/',
      ...[...records].flatMap(([name, values]) => values.map((value) => `txt-record=${name},"${value.replace(/"/g, '\\"')}"`)),
    ];
    await writeFile(config, `${lines.join('\n')}\n`);
  }

  async function start(): Promise<void> {
    await writeConfig();
    const started = spawn(binary, ['--keep-in-foreground', `--conf-file=${config}`, '--pid-file='], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child = started;
    // Up once it answers on its port; a config it refuses makes it exit at once.
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`dnsmasq exited (${started.exitCode}): ${stderr}`);
      const answered = await answers(port);
      if (answered) return;
      if (Date.now() > deadline) throw new Error(`dnsmasq did not answer on port ${port}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  }

  await start();
  return {
    address: `127.0.0.1:${port}`,
    async setTxt(name, values) {
      if (values.length > 0) records.set(name, values);
      else records.delete(name);
      await stop();
      await start();
    },
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
