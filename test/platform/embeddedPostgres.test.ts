import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgresExited, startEmbeddedPostgres } from '../../platform/embeddedPostgres.ts';
import { freePort } from '../../platform/freePort.ts';
import { createLogger } from '../../platform/logger.ts';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe('startEmbeddedPostgres', () => {
  it('fails with what PostgreSQL said when its port is taken, instead of an empty rejection', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'embedded-postgres-'));
    folders.push(folder);
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const started = startEmbeddedPostgres(folder, port, createLogger('silent', 'test'));
      await expect(started).rejects.toBeInstanceOf(EmbeddedPostgresExited);
      await expect(started).rejects.toThrow(new RegExp(`port ${port}.*(could not bind|Address already in use|could not create any TCP/IP sockets)`, 's'));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 120_000);
});
