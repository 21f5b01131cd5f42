import { Migration } from '@mikro-orm/migrations';

/**
 * SSO connections may speak SAML (SPEC-EXTENSIONS §14): a SAML one keeps its identity provider as its metadata
 * describes it (`saml`: entity id, SSO URL and binding, signing certificates as PEM with fingerprint and not_after),
 * the metadata URL it is read again from (null for metadata given as XML) and when that last succeeded or failed;
 * `issuer` holds the IdP's entity id. An OIDC one keeps its client and endpoints, which a SAML one has none of.
 * A deleted connection remembers its protocol.
 */
export class Migration20261208000040SamlConnections extends Migration {
  override name = 'Migration20261208000040SamlConnections';

  up(): void {
    this.addSql(`alter table sso_connections drop constraint sso_connections_protocol_check`);
    this.addSql(`alter table sso_connections add constraint sso_connections_protocol_check check (protocol in ('oidc', 'saml'))`);
    this.addSql(`alter table sso_connections alter column client_id drop not null, alter column client_secret_sealed drop not null, alter column endpoints drop not null`);
    this.addSql(`alter table sso_connections
      add column saml jsonb,
      add column metadata_url text,
      add column metadata_refreshed_at timestamptz,
      add column metadata_refresh_failed_at timestamptz,
      add column metadata_refresh_error text`);
    this.addSql(`alter table sso_connections add constraint sso_connections_protocol_fields_check check (
      (protocol = 'oidc' and client_id is not null and client_secret_sealed is not null and endpoints is not null and saml is null and metadata_url is null)
      or (protocol = 'saml' and saml is not null and metadata_refreshed_at is not null and client_id is null and client_secret_sealed is null and endpoints is null))`);
    this.addSql(`alter table deleted_sso_connections add column protocol text not null default 'oidc' check (protocol in ('oidc', 'saml'))`);
    this.addSql(`alter table deleted_sso_connections alter column client_id drop not null`);
  }
}
