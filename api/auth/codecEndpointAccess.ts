import type { Settings } from '../../platform/config.ts';
import type { AuthConfig } from './authConfig.ts';

/**
 * Whether the API serves the codec endpoint, which decrypts Temporal payloads (invite links, e-mail addresses): with
 * authentication on always, to registry:admin alone; with it off only when CODEC_ENDPOINT_ENABLED opens it to anyone
 * who reaches the API (warned at start, api/securityWarnings.ts).
 */
export const codecEndpointServed = (settings: Pick<Settings, 'CODEC_ENDPOINT_ENABLED'>, auth: AuthConfig): boolean =>
  auth.enabled || settings.CODEC_ENDPOINT_ENABLED;
