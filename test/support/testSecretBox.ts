import { inject } from 'vitest';
import { SecretBox } from '../../platform/secretBox.ts';
import { parsePayloadKeys } from '../../platform/temporal/payloadKeys.ts';

/** The run's REGISTRY_SECRET_KEYS (globalSetup): every API and worker of the run seals and opens with them. */
export const testSecretBox = () => new SecretBox(parsePayloadKeys(inject('registrySecretKeys'), 'REGISTRY_SECRET_KEYS'));
