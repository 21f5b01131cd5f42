import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';

/** The TCP states of the loopback sockets bound to a local port, from the kernel's table (Linux). */
async function statesOnPort(port: number): Promise<string[]> {
  const table = await readFile('/proc/net/tcp', 'utf8');
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return table
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1]?.endsWith(`:${hex}`))
    .map((fields) => fields[3]!);
}

const TIME_WAIT = '06';

describe('freePort', () => {
  it('leaves the port in TIME_WAIT, so the kernel hands it to no other bind(0) or outgoing connection meanwhile', async () => {
    const port = await freePort();
    expect(await statesOnPort(port)).toContain(TIME_WAIT);
  });

  it('returns a port a server can listen on at once', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    expect((server.address() as { port: number }).port).toBe(port);
    await new Promise((resolve) => server.close(resolve));
  });

  it('returns a different port on each call while the earlier ones are held', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(20);
  });
});
