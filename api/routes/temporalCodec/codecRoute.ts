import { AppError, notFound } from '../../../domain/errors.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { CodecPayloads } from '../../../domain/schemas/temporalCodec.ts';
import { transcodePayloads } from '../../../platform/temporal/transcodePayloads.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { codecEndpointServed } from '../../auth/codecEndpointAccess.ts';

/**
 * Temporal's remote codec protocol (what the Web UI's "codec endpoint" calls): an operator allowed to (registry:admin)
 * sees payloads decoded in the Web UI, and the Web UI encodes the input of the signals it sends, while the history
 * stays encrypted. registry:admin even with AUTH_REQUIRE_SCOPES=false; with authentication off, 404 unless
 * CODEC_ENDPOINT_ENABLED (api/auth/codecEndpointAccess.ts). Browsers reach it across origins, so CORS for the Web
 * UI's origin is answered by api/middleware/codecCors.ts before authentication.
 */
export const codecRoute = (direction: 'decode' | 'encode') =>
  defineRoute({
    method: 'post',
    path: `/codec/${direction}`,
    operationId: direction === 'decode' ? 'decodePayloads' : 'encodePayloads',
    access: 'registry:admin',
    acrossTenants: 'decode or encode Temporal payloads',
    summary: `Temporal codec server: ${direction} payloads with the service's payload keys (the Temporal Web UI's codec endpoint)`,
    tags: ['operations'],
    extension: true,
    body: CodecPayloads,
    responses: {
      200: { description: `the payloads, ${direction}d`, schema: CodecPayloads },
      400: { description: 'invalid input, or an encrypted payload that does not decrypt with any configured key', schema: ErrorBody },
      404: { description: 'this API has no payload codec, or serves none: authentication is off and CODEC_ENDPOINT_ENABLED is not set', schema: ErrorBody },
    },
    handler: async ({ body }, { deps }) => {
      if (!deps.payloadCodec) throw notFound('codec');
      if (!codecEndpointServed(deps.settings, deps.authConfig)) {
        throw new AppError('not_found', 'the codec endpoint is off: authentication is off (AUTH_ENABLED=false) and CODEC_ENDPOINT_ENABLED is not set');
      }
      try {
        return { status: 200, body: { payloads: await transcodePayloads(deps.payloadCodec, direction, body.payloads) } };
      } catch (err) {
        throw new AppError('invalid_input', `payloads could not be ${direction}d: ${(err as Error).message}`);
      }
    },
  });
