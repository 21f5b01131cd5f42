import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRegistrySecretKeys } from '../../platform/registrySecretKeys.ts';
import { createLogger } from '../../platform/logger.ts';
import { formatPayloadKeys, newPayloadKey } from '../../platform/temporal/payloadKeys.ts';

const log = createLogger('silent', 'test');

describe('REGISTRY_SECRET_KEYS', () => {
  it('are read as TEMPORAL_PAYLOAD_KEYS are, the first sealing, and refused by name when malformed', async () => {
    const keys = [newPayloadKey('s2'), newPayloadKey('s1')];
    expect(await resolveRegistrySecretKeys({ REGISTRY_SECRET_KEYS: formatPayloadKeys(keys), DATABASE_URL: 'postgres://db/x', DATA_DIR: '/nonexistent' }, log)).toEqual(keys);
    await expect(resolveRegistrySecretKeys({ REGISTRY_SECRET_KEYS: 's1:c2hvcnQ=', DATA_DIR: '/nonexistent' }, log)).rejects.toThrow(/^REGISTRY_SECRET_KEYS: key s1 is 5 bytes/);
  });

  it('are required with DATABASE_URL: the service refuses to start without them', async () => {
    await expect(resolveRegistrySecretKeys({ DATABASE_URL: 'postgres://db/x', DATA_DIR: '/nonexistent' }, log)).rejects.toThrow(/REGISTRY_SECRET_KEYS is required with DATABASE_URL/);
  });

  it('on the embedded defaults are a development key made once in DATA_DIR with mode 0600, the same on every start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'secret-keys-'));
    try {
      const first = await resolveRegistrySecretKeys({ DATA_DIR: dataDir }, log);
      expect(first).toHaveLength(1);
      const file = join(dataDir, 'registry-secret-keys');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await readFile(file, 'utf8')).trim()).toBe(formatPayloadKeys(first));
      expect(await resolveRegistrySecretKeys({ DATA_DIR: dataDir }, log)).toEqual(first);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
