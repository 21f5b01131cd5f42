/** Verifies inbound service tokens against the configured OIDC issuer. */
import { errors, jwtVerify, type JWTPayload, type JWTVerifyOptions } from 'jose';
import { AppError } from '../../domain/errors.ts';
import type { EnabledAuthConfig } from './authConfig.ts';
import { createIssuerKeys } from './issuerKeys.ts';

/** The verified claims of the caller's token. */
export type Principal = JWTPayload;

export type TokenVerifier = {
  /** Resolves to the verified claims, or rejects with AppError('unauthorized') whose message is safe to show the caller. */
  verify(token: string): Promise<Principal>;
};

export function createOidcTokenVerifier(config: EnabledAuthConfig): TokenVerifier {
  const keys = createIssuerKeys(config);
  const options: JWTVerifyOptions = {
    issuer: config.issuer,
    audience: config.audience,
    algorithms: config.algorithms,
    clockTolerance: config.clockToleranceSeconds,
    requiredClaims: ['exp'],
  };
  return {
    async verify(token) {
      try {
        return (await jwtVerify(token, keys, options)).payload;
      } catch (err) {
        throw toRejection(err);
      }
    },
  };
}

/** A refusal caused by the issuer (unreachable, slow or misconfigured), not by the token: operators need to see it. */
export class IssuerUnavailableError extends AppError {
  constructor(cause: unknown) {
    super('unauthorized', 'token could not be verified: identity provider unavailable');
    this.cause = cause;
  }
}

const REASONS_BY_CODE: Record<string, string> = {
  [errors.JWTExpired.code]: 'token expired',
  [errors.JWSSignatureVerificationFailed.code]: 'token signature invalid',
  [errors.JOSEAlgNotAllowed.code]: 'token algorithm not allowed',
  [errors.JOSENotSupported.code]: 'token uses an unsupported feature',
  [errors.JWKSNoMatchingKey.code]: 'token signing key not recognised',
  [errors.JWKSMultipleMatchingKeys.code]: 'token signing key ambiguous',
  [errors.JWSInvalid.code]: 'token malformed',
  [errors.JWTInvalid.code]: 'token malformed',
};

const REASONS_BY_CLAIM: Record<string, string> = {
  nbf: 'token not yet valid',
  aud: 'token audience not accepted',
  iss: 'token issuer not accepted',
};

/** Token problems get a short reason safe to show the caller; anything else is on the issuer's side and fails closed. */
function toRejection(err: unknown): AppError {
  if (err instanceof errors.JWTClaimValidationFailed) {
    const reason = err.reason === 'missing' ? `token lacks the ${err.claim} claim` : REASONS_BY_CLAIM[err.claim];
    return new AppError('unauthorized', reason ?? `token ${err.claim} claim not accepted`);
  }
  const reason = err instanceof errors.JOSEError ? REASONS_BY_CODE[err.code] : undefined;
  return reason ? new AppError('unauthorized', reason) : new IssuerUnavailableError(err);
}
