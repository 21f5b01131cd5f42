import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
// A CommonJS package: its default export is the whole module under Node's ESM loader.
import proto from '@temporalio/proto';

const { temporal } = proto;

/** The metadata Temporal's own encryption samples use, so its tools recognise an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** What a payload's metadata says it is: encrypted by a codec of this kind (only decoding tells whether with a key of ours). */
export const isEncryptedPayload = (payload: Payload): boolean => {
  const encoding = payload.metadata?.encoding;
  return !!encoding && textDecoder.decode(encoding) === ENCRYPTED_ENCODING;
};

export interface PayloadKey {
  id: string;
  /** 32 bytes: AES-256. */
  key: Buffer;
}

/**
 * AES-256-GCM over each whole payload (its metadata and data, serialised as Temporal's Payload message), so workflow
 * state, signals, queries, updates and activity results reach Temporal's history only encrypted: the history then
 * holds no invite URL and no e-mail address in clear text. The first key encrypts; every key decrypts, found by
 * the key id in the payload's metadata, so keys rotate by putting the new one first and dropping the old one once
 * no history still needs it. A payload that is not encrypted with one of the keys is refused: whoever reaches
 * Temporal without a key cannot start or signal a workflow that runs (docs/security.md, "What Temporal access means").
 */
export class PayloadEncryptionCodec implements PayloadCodec {
  // Key objects made once: given the raw bytes, every cipher imported the key anew, which was three quarters of what a
  // payload cost (a fifth of the worker's main thread under tenant creation, issue #19).
  readonly #current: { id: string; key: KeyObject };
  readonly #byId: Map<string, KeyObject>;

  constructor(keys: PayloadKey[]) {
    if (keys.length === 0) throw new Error('the payload codec needs at least one key');
    for (const { id, key } of keys) {
      if (key.length !== 32) throw new Error(`payload key ${id} must be 32 bytes (AES-256), got ${key.length}`);
    }
    this.#current = { id: keys[0]!.id, key: createSecretKey(keys[0]!.key) };
    this.#byId = new Map(keys.map(({ id, key }) => [id, createSecretKey(key)]));
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: { encoding: textEncoder.encode(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: textEncoder.encode(this.#current.id) },
        data,
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      // The worker then fails the workflow task (or the activity) instead of running code on a payload anyone could write.
      if (!isEncryptedPayload(payload)) {
        const encoding = textDecoder.decode(payload.metadata?.encoding ?? new Uint8Array());
        throw new Error(`refused a payload that is not encrypted (encoding "${encoding}"): only holders of TEMPORAL_PAYLOAD_KEYS may write Temporal payloads`);
      }
      const keyIdBytes = payload.metadata?.[KEY_ID_METADATA];
      const keyId = keyIdBytes ? textDecoder.decode(keyIdBytes) : '';
      const key = this.#byId.get(keyId);
      // Loud, never a pass-through: a workflow must not run on a payload it cannot read.
      if (!key) throw new Error(`no payload key with id "${keyId}" is configured (TEMPORAL_PAYLOAD_KEYS)`);
      const data = Buffer.from(payload.data ?? new Uint8Array());
      if (data.length < IV_BYTES + TAG_BYTES) throw new Error('encrypted payload is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      return temporal.api.common.v1.Payload.decode(plain) as Payload;
    });
  }
}
