import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { PayloadKey } from './temporal/payloadEncryptionCodec.ts';

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets the registry must be able to read again (an audit stream's signing secret; SSO client secrets next), sealed
 * at rest with AES-256-GCM under REGISTRY_SECRET_KEYS: the first key seals, every key opens, so keys rotate by putting
 * a new one first. A sealed value is `v1:<key id>:<base64 of IV, ciphertext and tag>`, and binds its context (e.g.
 * `audit_stream:<id>`) as associated data, so a sealed value copied to another row does not open there.
 */
export class SecretBox {
  readonly #current: { id: string; key: KeyObject };
  readonly #byId: Map<string, KeyObject>;

  constructor(keys: PayloadKey[]) {
    if (keys.length === 0) throw new Error('the secret box needs at least one key (REGISTRY_SECRET_KEYS)');
    for (const { id, key } of keys) {
      if (key.length !== 32) throw new Error(`secret key ${id} must be 32 bytes (AES-256), got ${key.length}`);
    }
    this.#current = { id: keys[0]!.id, key: createSecretKey(keys[0]!.key) };
    this.#byId = new Map(keys.map(({ id, key }) => [id, createSecretKey(key)]));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}:${this.#current.id}:${sealed.toString('base64')}`;
  }

  /** Throws on an unknown key id, another context, or any change to the sealed value: never a wrong secret. */
  open(sealed: string, context: string): string {
    const [format, keyId, body, ...rest] = sealed.split(':');
    if (format !== FORMAT || keyId === undefined || body === undefined || rest.length > 0) throw new Error('not a sealed secret');
    const key = this.#byId.get(keyId);
    if (!key) throw new Error(`no secret key with id "${keyId}" is configured (REGISTRY_SECRET_KEYS)`);
    const data = Buffer.from(body, 'base64');
    if (data.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
