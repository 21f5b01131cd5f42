import { inject } from 'vitest';
import { PayloadEncryptionCodec } from '../../platform/temporal/payloadEncryptionCodec.ts';
import { parsePayloadKeys } from '../../platform/temporal/payloadKeys.ts';
import type { TemporalAccess } from '../../platform/temporal/temporalAccess.ts';

/** The run's Temporal as the service reaches it: every payload through the run's encryption key (globalSetup). */
export const testPayloadCodec = () => new PayloadEncryptionCodec(parsePayloadKeys(inject('temporalPayloadKeys')));

export const testTemporalAccess = (address = inject('temporalAddress')): TemporalAccess => ({ address, payloadCodec: testPayloadCodec() });
