import { randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new endpoint secret in Standard Webhooks' form: `whsec_` and the base64 of 32 random bytes, the HMAC key. */
export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** The HMAC key a `whsec_` secret stands for: the bytes its base64 encodes, as the standardwebhooks libraries read it. */
export const webhookSecretKey = (secret: string): Buffer => Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
