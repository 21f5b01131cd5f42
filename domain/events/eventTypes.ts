import { z } from 'zod';
import { SIGN_IN_REFUSALS } from '../signIn/signInDecision.ts';

/**
 * Every event type the service appends, each with the zod schema of its metadata (the CloudEvent's `data`), in one
 * table: the catalog, the AsyncAPI document and the test hook that checks every appended event all read it.
 *
 * A schema names every field the service writes and which are always there; it admits fields it does not name, so a
 * field added later is no breaking change for a receiver that ignores what it does not know.
 */
const text = z.string();
const instant = z.iso.datetime();
const roles = z.array(z.string());
const open = z.record(z.string(), z.unknown());

/** What a change made through an admin portal session adds to the event it records (portalSessions.ts). */
const portalSession = z.looseObject({ session_id: text, link_created_by: text.optional(), intent: text.optional() }).optional();

const metadata = <S extends z.ZodRawShape>(shape: S) => z.looseObject({ ...shape, portal: portalSession });

const statusChange = { from: text, to: text };
const entitlementShown = z.looseObject({ enabled: z.boolean(), config: open, expires_at: instant.nullable() });
const outcome = { outcome_id: text };
const failure = { kind: text, message: text };
const providerIds = { user_id: text.optional(), organization_id: text.optional() };
const operatorRequest = { requested_by: text.optional(), note: text.optional(), requested_via: z.enum(['api', 'temporal']).optional() };
const failedStep = { kind: text.optional(), step: text.optional(), message: text.optional() };
const certificates = z.array(z.looseObject({ fingerprint_sha256: text, not_after: instant }));
/** A connection as its events name it: OIDC's issuer and client, SAML's IdP entity id (issuer), SSO URL and certificates. */
const sso = {
  protocol: z.enum(['oidc', 'saml']).optional(),
  issuer: text,
  client_id: text.optional(),
  sso_url: text.optional(),
  metadata_url: text.nullable().optional(),
  certificates: certificates.optional(),
  domains: z.array(text),
  state: text,
  idp_alias: text.optional(),
};
const certificate = { fingerprint_sha256: text, not_after: instant };
const signInRefusal = { user_id: text, client_id: text, product: text.optional(), identity_provider: text.optional(), auth_time: z.int().optional() };
const productClients = z.looseObject({ client_ids: z.array(text), fail: z.enum(['open', 'closed']) });
const directory = { state: text, group_roles: z.unknown() };
const directoryUser = { directory_id: text, user_name: text, active: z.boolean(), external_id: text.optional() };
const directoryGroup = { directory_id: text, display_name: text, members: z.int() };
const member = { roles, source: text.optional(), invitation_id: text.optional(), directory_id: text.optional() };

export interface EventTypeDefinition {
  summary: string;
  metadata: z.ZodType;
}

export const EVENT_TYPES = {
  'tenant.created': { summary: 'A tenant was created.', metadata: metadata({ kind: text, plan: text, status: text, admin_invited: z.boolean() }) },
  'tenant.activated': { summary: 'A tenant was activated (paid).', metadata: metadata({ ...statusChange, plan: text.optional(), contract_start: text.optional(), contract_end: text.optional(), erp_customer_id: text.optional() }) },
  'tenant.cancelled': { summary: 'A tenant was cancelled and frozen.', metadata: metadata({ ...statusChange, reason: text.optional(), at_period_end: z.boolean().optional() }) },
  'tenant.archived': { summary: 'A tenant was archived.', metadata: metadata({ ...statusChange, reason: text.optional() }) },
  'tenant.updated': { summary: "A tenant's fields or settings changed (old and new values).", metadata: metadata({ changes: open }) },
  'tenant.trial_ending': { summary: "A tenant's trial ends soon.", metadata: metadata({ days_left: z.int(), trial_ends_at: instant }) },
  'tenant.trial_expired': { summary: "A tenant's trial ended: it is frozen.", metadata: metadata({ ...statusChange, trial_ends_at: instant }) },
  'tenant.no_active_admin': { summary: 'A tenant was left without an active IT_ADMIN.', metadata: metadata({ directory_id: text.optional(), user_id: text.optional(), outcome_id: text.optional() }) },
  'tenant.handoff_dead_lettered': { summary: "A command to a tenant's actor could not be delivered and was set aside.", metadata: metadata({ command: text, attempts: z.int(), outbox_id: z.union([text, z.number()]), last_error: text }) },
  'api_key.created': { summary: 'An API key was created.', metadata: metadata({ prefix: text, scopes: z.array(text), expires_at: instant.optional() }) },
  'api_key.revoked': { summary: 'An API key was revoked.', metadata: metadata({ prefix: text }) },
  'api_key.rotated': { summary: 'An API key was rotated: a successor issued, the old key ends after its grace.', metadata: metadata({ prefix: text, new_key_id: text, new_prefix: text, grace_seconds: z.int(), old_key_expires_at: instant }) },
  'entitlement.trial_started': { summary: "A product's trial started for a tenant.", metadata: metadata({ product: text, expires_at: instant }) },
  'entitlement.granted': { summary: 'A tenant was granted a product.', metadata: metadata({ product: text, old: z.null(), new: entitlementShown }) },
  'entitlement.updated': { summary: "A tenant's entitlement to a product changed.", metadata: metadata({ product: text, old: entitlementShown, new: entitlementShown }) },
  'entitlement.revoked': { summary: "A tenant's entitlement to a product was revoked.", metadata: metadata({ product: text, old: entitlementShown }) },
  'entitlement.expired': { summary: "A tenant's entitlement to a product expired.", metadata: metadata({ product: text, expires_at: instant }) },
  'catalog.product_requested': { summary: 'A tenant asked for a product of the catalog.', metadata: metadata({ product: text }) },
  'idp.invite_sent': { summary: "A tenant's provisioning succeeded: its IT_ADMIN was invited.", metadata: metadata({ ...outcome, resend: z.boolean(), ...providerIds, ...operatorRequest }) },
  'idp.provision_failed': { summary: "A tenant's provisioning failed at a step.", metadata: metadata({ ...outcome, resend: z.boolean(), ...providerIds, ...operatorRequest, ...failure, step: text }) },
  'idp.invitation_sent': { summary: "An invitation's e-mail was sent by the identity provider.", metadata: metadata({ ...outcome, invitation_id: text, ...providerIds, send_count: z.int().optional() }) },
  'idp.invitation_failed': { summary: "An invitation's e-mail could not be sent.", metadata: metadata({ ...outcome, invitation_id: text, ...providerIds, send_count: z.int().optional(), ...failedStep }) },
  'idp.member_sync_failed': { summary: "A member's state could not be carried into the identity provider.", metadata: metadata({ ...outcome, user_id: text, ...failure, attempts: z.int() }) },
  'idp.claims_push_failed': { summary: "A tenant's claims could not be pushed into the identity provider.", metadata: metadata({ ...outcome, ...failure, attempts: z.int() }) },
  'idp.domain_sync_failed': { summary: "A tenant's verified domains could not be carried into the identity provider.", metadata: metadata({ ...outcome, ...failure }) },
  'idp.sso_sync_failed': { summary: 'An SSO connection could not be carried into the identity provider.', metadata: metadata({ ...outcome, ...failure }) },
  'idp.directory_sync_failed': { summary: "A directory's user could not be carried into the identity provider.", metadata: metadata({ ...outcome, ...failure }) },
  'audit.stream_created': { summary: 'An audit stream was created.', metadata: metadata({ url: text, filter: open }) },
  'audit.stream_deleted': { summary: 'An audit stream was deleted.', metadata: metadata({}) },
  'audit.retention_checkpoint': {
    summary: "A tenant's events older than its retention are being removed: how many, which ids, and the cut-off. The events after them still verify.",
    metadata: metadata({ retention_days: z.int(), removed_before: instant, removed_count: z.int(), first_removed_id: z.int(), last_removed_id: z.int() }),
  },
  'permission.created': { summary: 'A permission was added to the catalog of permissions.', metadata: metadata({ description: text.nullable() }) },
  'permission.deleted': { summary: 'A permission was removed from the catalog of permissions.', metadata: metadata({ description: text.nullable() }) },
  'role.created': { summary: 'A role was created (shared, or a tenant\'s own).', metadata: metadata({ name: text, description: text.nullable(), permissions: z.array(text), shared: z.boolean() }) },
  'role.updated': { summary: 'A role changed (old and new values).', metadata: metadata({ changes: open }) },
  'role.deleted': { summary: 'A role was deleted.', metadata: metadata({ name: text, description: text.nullable(), permissions: z.array(text), shared: z.boolean() }) },
  'member.added': { summary: 'A user became a member of a tenant.', metadata: metadata(member) },
  'member.activated': { summary: "A pending member's invitation was accepted: the member is active.", metadata: metadata(member) },
  'member.roles_changed': { summary: "A member's roles changed.", metadata: metadata({ old: roles, new: roles, directory_id: text.optional() }) },
  'member.deactivated': { summary: 'A member was deactivated.', metadata: metadata({ ...statusChange, directory_id: text.optional() }) },
  'member.reactivated': { summary: 'A member was reactivated.', metadata: metadata({ ...statusChange, directory_id: text.optional() }) },
  'member.removed': { summary: 'A member left a tenant.', metadata: metadata({ ...member, status: text.optional() }) },
  'invitation.created': { summary: 'A user was invited into a tenant.', metadata: metadata({ roles, expires_at: instant, send_email: z.boolean(), invited_by: text.nullable().optional() }) },
  'invitation.resent': { summary: 'An invitation was sent again with a new link.', metadata: metadata({ send_count: z.int(), expires_at: instant, was: text }) },
  'invitation.accepted': { summary: 'An invitation was accepted.', metadata: metadata({ user_id: text, roles, via: text.optional() }) },
  'invitation.revoked': { summary: 'An invitation was revoked.', metadata: metadata({ was: text }) },
  'invitation.expired': { summary: 'An invitation expired unaccepted.', metadata: metadata({ expires_at: instant }) },
  'domain.added': { summary: 'A domain was claimed by a tenant; its verification began.', metadata: metadata({}) },
  'domain.verified': { summary: "A tenant's domain was verified by its DNS record.", metadata: metadata({ was: text }) },
  'domain.failed': { summary: "A tenant's domain was not verified within its window.", metadata: metadata({ window_hours: z.number() }) },
  'domain.verification_lost': { summary: "A verified domain's DNS record is gone.", metadata: metadata({ verified_at: instant.nullable() }) },
  'domain.removed': { summary: 'A domain was removed from a tenant.', metadata: metadata({ state: text }) },
  'sso.connection_created': { summary: 'An SSO connection was created.', metadata: metadata(sso) },
  'sso.connection_changed': { summary: 'An SSO connection changed.', metadata: metadata({ ...sso, changes: open }) },
  'sso.connection_deleted': { summary: 'An SSO connection was deleted.', metadata: metadata(sso) },
  'sso.sign_in_refused': { summary: "A sign-in through a tenant's SSO connection was refused.", metadata: metadata({ ...sso, email_domain: text.nullable().optional(), reason: text }) },
  'sso.metadata_refresh_failed': { summary: "A SAML connection's metadata URL could not be read again; the connection keeps what it had.", metadata: metadata({ ...sso, error: text }) },
  'sso.certificate_expiring': { summary: "A SAML connection's signing certificate expires in 30, 7 or 1 days.", metadata: metadata({ ...sso, ...certificate, days_before: z.int() }) },
  'sso.certificate_expired': { summary: "A SAML connection's signing certificate expired.", metadata: metadata({ ...sso, ...certificate }) },
  'sign_in.refused': { summary: 'The registry refused a sign-in, code exchange or refresh, with the reason.', metadata: metadata({ reason: z.enum(SIGN_IN_REFUSALS), ...signInRefusal }) },
  'member.break_glass_used': { summary: "A break-glass member signed in without the tenant's required SSO.", metadata: metadata(signInRefusal) },
  'member.break_glass_changed': { summary: "A member's break-glass mark was set or cleared.", metadata: metadata({ from: z.boolean(), to: z.boolean() }) },
  'catalog.clients_changed': { summary: "A product's sign-in clients or fail mode changed (old and new).", metadata: metadata({ product: text, old: productClients, new: productClients }) },
  'directory.created': { summary: 'A SCIM directory was created.', metadata: metadata(directory) },
  'directory.updated': { summary: 'A SCIM directory changed.', metadata: metadata({ ...directory, changes: open }) },
  'directory.token_rotated': { summary: "A SCIM directory's token was rotated.", metadata: metadata({ ...directory, previous_token_expires_at: instant }) },
  'directory.deleted': { summary: 'A SCIM directory was deleted.', metadata: metadata(directory) },
  'directory.user_created': { summary: 'A directory created a user.', metadata: metadata(directoryUser) },
  'directory.user_updated': { summary: 'A directory changed a user.', metadata: metadata(directoryUser) },
  'directory.user_deactivated': { summary: 'A directory deactivated a user.', metadata: metadata(directoryUser) },
  'directory.user_deleted': { summary: 'A directory deleted a user.', metadata: metadata(directoryUser) },
  'directory.group_created': { summary: 'A directory created a group.', metadata: metadata(directoryGroup) },
  'directory.group_updated': { summary: 'A directory changed a group.', metadata: metadata(directoryGroup) },
  'directory.group_deleted': { summary: 'A directory deleted a group.', metadata: metadata(directoryGroup) },
  'portal.link_created': { summary: 'An admin portal link was created.', metadata: metadata({ intent: text, expires_at: instant, return_url: text.optional() }) },
  'portal.link_opened': { summary: 'An admin portal link was opened: its session began.', metadata: metadata({ intent: text, link_created_by: text.nullable().optional() }) },
  'webhook_endpoint.created': { summary: 'A webhook endpoint was created: where the events of its types are sent.', metadata: metadata({ url: text, types: z.array(text), tenant_id: text.optional() }) },
  'webhook_endpoint.updated': { summary: "A webhook endpoint's url, types or state changed (the new values).", metadata: metadata({ url: text.optional(), types: z.array(text).optional(), state: text.optional() }) },
  'webhook_endpoint.deleted': { summary: 'A webhook endpoint was deleted: its delivery stopped.', metadata: metadata({}) },
  'webhook_endpoint.secret_rotated': { summary: "A webhook endpoint's secret was rotated; the previous one signs too for the overlap.", metadata: metadata({ overlap_seconds: z.int() }) },
  'webhook_endpoint.replay_requested': { summary: 'A webhook endpoint was asked to deliver again from a sequence.', metadata: metadata({ from_sequence: z.int() }) },
  'webhook_endpoint.disabled': { summary: 'A webhook endpoint was disabled: its receiver failed for the whole retry window.', metadata: metadata({ reason: text, failing_since: instant }) },
} as const satisfies Record<string, EventTypeDefinition>;

export type ServiceEventType = keyof typeof EVENT_TYPES;

/**
 * The type of every event a caller appends with POST /v1/audit: its action is its own (any name outside the
 * service's prefixes), its metadata any JSON object.
 */
export const APPLICATION_EVENT: EventTypeDefinition = {
  summary: "An event a product or operator appended with POST /v1/audit: its type is the caller's action, its data the caller's metadata.",
  metadata: z.record(z.string(), z.unknown()),
};
