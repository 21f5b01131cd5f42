import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger.ts';
import type { PayloadKey } from './payloadEncryptionCodec.ts';

/** `id:base64key,id:base64key`: the first encrypts, all decrypt (TEMPORAL_PAYLOAD_KEYS, REGISTRY_SECRET_KEYS). */
export function parsePayloadKeys(text: string, setting = 'TEMPORAL_PAYLOAD_KEYS'): PayloadKey[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const separator = entry.indexOf(':');
      const id = entry.slice(0, separator);
      if (separator <= 0 || !/^[A-Za-z0-9._-]{1,64}$/.test(id)) throw new Error(`${setting}: each entry is <key id>:<base64 of 32 bytes>`);
      const key = Buffer.from(entry.slice(separator + 1), 'base64');
      if (key.length !== 32) throw new Error(`${setting}: key ${id} is ${key.length} bytes, AES-256 needs 32`);
      return { id, key };
    });
}

export const formatPayloadKeys = (keys: PayloadKey[]) => keys.map(({ id, key }) => `${id}:${key.toString('base64')}`).join(',');

/** A new key, e.g. for `.env`: `node -e` of this prints one line to paste. */
export const newPayloadKey = (id = `k${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`): PayloadKey => ({ id, key: randomBytes(32) });

/**
 * The keys of this deployment. TEMPORAL_PAYLOAD_KEYS when set. Otherwise, on the embedded defaults (no
 * TEMPORAL_ADDRESS: the local development server, whose history lives in DATA_DIR), a key made on first start and
 * kept beside that history with mode 0600, so `npm start` is encrypted too. A deployment against its own Temporal
 * must bring its keys: the service refuses to start rather than write secrets to a shared history in clear text.
 */
export async function resolvePayloadKeys(settings: { TEMPORAL_PAYLOAD_KEYS?: string; TEMPORAL_ADDRESS?: string; DATA_DIR: string }, log: Logger): Promise<PayloadKey[]> {
  if (settings.TEMPORAL_PAYLOAD_KEYS) return parsePayloadKeys(settings.TEMPORAL_PAYLOAD_KEYS);
  if (settings.TEMPORAL_ADDRESS) {
    throw new Error('TEMPORAL_PAYLOAD_KEYS is required with TEMPORAL_ADDRESS: Temporal payloads (invite links, e-mail addresses) are encrypted with it (docs/security.md)');
  }
  return developmentKeys(join(settings.DATA_DIR, 'temporal-payload-keys'), 'TEMPORAL_PAYLOAD_KEYS', 'Temporal payload encryption', log);
}

/**
 * The development key of the embedded defaults, for the setting left empty: read from `file`, or made on first start
 * and kept there with mode 0600, beside the data it protects in DATA_DIR.
 */
export async function developmentKeys(file: string, setting: string, purpose: string, log: Logger): Promise<PayloadKey[]> {
  const stored = await readFile(file, 'utf8').catch(() => undefined);
  if (stored) return parsePayloadKeys(stored, setting);
  const keys = [newPayloadKey('dev')];
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${formatPayloadKeys(keys)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  log.warn({ file }, `made a development key for ${purpose}; set ${setting} in production`);
  return keys;
}
