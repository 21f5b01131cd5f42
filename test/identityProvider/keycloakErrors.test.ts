import { describe, expect, it } from 'vitest';
import { toIdpError } from '../../identityProvider/keycloakErrors.ts';
import { isRetryableFailure } from '../../domain/provisioning/provisioningVocabulary.ts';

describe('toIdpError', () => {
  it('classifies transport failures as unavailable, so provisioning retries them: unreachable, timed out, a body cut off', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const cutOff = Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    const truncated = new SyntaxError('Unexpected end of JSON input');
    const timedOut = new DOMException('The operation timed out', 'TimeoutError');
    for (const err of [refused, cutOff, truncated, timedOut]) {
      const idpError = toIdpError(err, 'create user');
      expect(idpError.kind, String(err)).toBe('unavailable');
      expect(isRetryableFailure(idpError.kind)).toBe(true);
    }
  });
});
