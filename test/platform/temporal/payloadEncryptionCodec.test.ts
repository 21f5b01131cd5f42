import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { ENCRYPTED_ENCODING, KEY_ID_METADATA, PayloadEncryptionCodec } from '../../../platform/temporal/payloadEncryptionCodec.ts';
import { formatPayloadKeys, newPayloadKey, parsePayloadKeys } from '../../../platform/temporal/payloadKeys.ts';
import { temporalTls } from '../../../platform/temporal/temporalTls.ts';

const secret = { email: 'admin@acme.example', inviteUrl: 'https://idp.example/action-token?key=s3cr3t' };
const payload = () => defaultPayloadConverter.toPayload(secret)!;
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('latin1');

describe('PayloadEncryptionCodec', () => {
  it('encrypts a payload so that nothing of it is readable, and decodes it back exactly', async () => {
    const codec = new PayloadEncryptionCodec([newPayloadKey('k1')]);
    const [encoded] = await codec.encode([payload()]);
    expect(text(encoded!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(encoded!.metadata![KEY_ID_METADATA])).toBe('k1');
    expect(text(encoded!.data)).not.toContain('admin@acme.example');
    expect(text(encoded!.data)).not.toContain('s3cr3t');
    const [decoded] = await codec.decode([encoded!]);
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual(secret);
  });

  it('uses a fresh IV per payload: the same value encrypts differently', async () => {
    const codec = new PayloadEncryptionCodec([newPayloadKey('k1')]);
    const [a, b] = await codec.encode([payload(), payload()]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it('rotates: a codec whose first key is new still decodes what the old key encrypted, and encrypts with the new one', async () => {
    const old = newPayloadKey('old');
    const [byOld] = await new PayloadEncryptionCodec([old]).encode([payload()]);
    const rotated = new PayloadEncryptionCodec([newPayloadKey('new'), old]);
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([byOld!]))[0]!)).toEqual(secret);
    expect(text((await rotated.encode([payload()]))[0]!.metadata![KEY_ID_METADATA])).toBe('new');
  });

  it('refuses a payload of an unknown key id, and a tampered one, loudly', async () => {
    const [encoded] = await new PayloadEncryptionCodec([newPayloadKey('gone')]).encode([payload()]);
    await expect(new PayloadEncryptionCodec([newPayloadKey('other')]).decode([encoded!])).rejects.toThrow(/no payload key with id "gone"/);
    const key = newPayloadKey('k1');
    const [sealed] = await new PayloadEncryptionCodec([key]).encode([payload()]);
    const tampered = Buffer.from(sealed!.data!);
    tampered[20]! ^= 1;
    await expect(new PayloadEncryptionCodec([key]).decode([{ ...sealed!, data: tampered }])).rejects.toThrow();
  });

  it('refuses a payload that is not encrypted, whatever its encoding or metadata, so no one without a key can write one', async () => {
    const codec = new PayloadEncryptionCodec([newPayloadKey('k1')]);
    await expect(codec.decode([payload()])).rejects.toThrow(/not encrypted \(encoding "json\/plain"\)/);
    await expect(codec.decode([defaultPayloadConverter.toPayload(undefined)!])).rejects.toThrow(/not encrypted/);
    await expect(codec.decode([{ data: payload().data }])).rejects.toThrow(/not encrypted \(encoding ""\)/);
    // One plain payload among encrypted ones refuses the whole batch.
    const [sealed] = await codec.encode([payload()]);
    await expect(codec.decode([sealed!, payload()])).rejects.toThrow(/not encrypted/);
  });
});

describe('TEMPORAL_PAYLOAD_KEYS', () => {
  it('round-trips id:base64 entries, the first encrypting', () => {
    const keys = [newPayloadKey('a'), newPayloadKey('b')];
    expect(parsePayloadKeys(formatPayloadKeys(keys))).toEqual(keys);
  });

  it('refuses a key that is not 32 bytes or an entry without an id', () => {
    expect(() => parsePayloadKeys(`a:${randomBytes(16).toString('base64')}`)).toThrow(/32/);
    expect(() => parsePayloadKeys(randomBytes(32).toString('base64'))).toThrow(/key id/);
  });
});

describe('temporalTls', () => {
  it('is off by default, TLS with the system roots when asked, and refuses half a client certificate', () => {
    expect(temporalTls({ TEMPORAL_TLS: false })).toBeUndefined();
    expect(temporalTls({ TEMPORAL_TLS: true, TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' })).toEqual({ serverNameOverride: 'temporal.internal' });
    expect(() => temporalTls({ TEMPORAL_TLS: true, TEMPORAL_TLS_CERT_FILE: '/dev/null' })).toThrow(/go together/);
  });

  it('reads the CA and the client certificate pair for mutual TLS', () => {
    const tls = temporalTls({ TEMPORAL_TLS: false, TEMPORAL_TLS_CA_FILE: import.meta.filename, TEMPORAL_TLS_CERT_FILE: import.meta.filename, TEMPORAL_TLS_KEY_FILE: import.meta.filename });
    expect(tls?.serverRootCACertificate?.length).toBeGreaterThan(0);
    expect(tls?.clientCertPair?.crt.length).toBeGreaterThan(0);
  });
});
