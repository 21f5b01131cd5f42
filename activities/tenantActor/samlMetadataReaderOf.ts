import type { ResolveHost } from '../../domain/auditStreams/streamTargets.ts';
import { issuerAddressCheck } from '../../domain/sso/issuerAddressCheck.ts';
import { SAML_METADATA_MEDIA_TYPES, type SamlMetadataSource } from '../../domain/sso/samlMetadataSource.ts';
import type { Settings } from '../../platform/config.ts';
import { systemHostResolver } from '../../platform/hostResolver.ts';
import { limitedDocumentFetch } from '../../platform/limitedDocumentFetch.ts';

/**
 * How the registry reads SAML metadata URLs, the API's (a connection made or changed) and the actor's (every
 * SSO_METADATA_REFRESH_HOURS) alike: the issuer address rule of SSO_ISSUER_ALLOWED_HOSTS, SSO_METADATA_TIMEOUT_MS and
 * SSO_METADATA_MAX_BYTES.
 */
export function samlMetadataReaderOf(
  settings: Pick<Settings, 'SSO_ISSUER_ALLOWED_HOSTS' | 'SSO_METADATA_TIMEOUT_MS' | 'SSO_METADATA_MAX_BYTES'>,
  resolveHost?: ResolveHost,
): SamlMetadataSource {
  return limitedDocumentFetch({
    check: issuerAddressCheck({ allowedHosts: settings.SSO_ISSUER_ALLOWED_HOSTS, resolveHost: resolveHost ?? systemHostResolver(settings.SSO_METADATA_TIMEOUT_MS) }),
    timeoutMs: settings.SSO_METADATA_TIMEOUT_MS,
    maxBytes: settings.SSO_METADATA_MAX_BYTES,
    accept: SAML_METADATA_MEDIA_TYPES,
  });
}
