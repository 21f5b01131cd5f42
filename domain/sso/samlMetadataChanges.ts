import type { SamlIdpMetadata } from './ssoConnectionRecord.ts';

/**
 * What new metadata changes of a SAML connection's identity provider, as its `sso.connection_changed` names it: the
 * certificates added and removed (by fingerprint), and the entity id, SSO URL, binding or request signing that moved.
 * Empty when the identity provider stays as it was.
 */
export function samlMetadataChanges(before: SamlIdpMetadata, after: SamlIdpMetadata): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const had = new Set(before.certificates.map((c) => c.fingerprintSha256));
  const has = new Set(after.certificates.map((c) => c.fingerprintSha256));
  const added = [...has].filter((f) => !had.has(f));
  const removed = [...had].filter((f) => !has.has(f));
  if (added.length > 0 || removed.length > 0) changes.certificates = { added, removed };
  if (before.entityId !== after.entityId) changes.idp_entity_id = { old: before.entityId, new: after.entityId };
  if (before.ssoUrl !== after.ssoUrl) changes.sso_url = { old: before.ssoUrl, new: after.ssoUrl };
  if (before.ssoBinding !== after.ssoBinding) changes.sso_binding = { old: before.ssoBinding, new: after.ssoBinding };
  if (before.wantAuthnRequestsSigned !== after.wantAuthnRequestsSigned) changes.want_authn_requests_signed = { old: before.wantAuthnRequestsSigned, new: after.wantAuthnRequestsSigned };
  return changes;
}
