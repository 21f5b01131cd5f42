import { Migration } from '@mikro-orm/migrations';

/**
 * The expiry notices sent for each signing certificate of a SAML connection (SPEC-EXTENSIONS §14): one row per
 * certificate and notice, written in the transaction of its audit event, so a notice is appended once whatever the
 * actor replays or retries. Gone with the connection.
 */
export class Migration20261208000041SsoCertificateNotices extends Migration {
  override name = 'Migration20261208000041SsoCertificateNotices';

  up(): void {
    this.addSql(`
      create table sso_certificate_notices (
        connection_id uuid not null references sso_connections (id) on delete cascade,
        fingerprint_sha256 text not null,
        notice text not null check (notice in ('expiring_30d', 'expiring_7d', 'expiring_1d', 'expired')),
        not_after timestamptz not null,
        sent_at timestamptz not null,
        primary key (connection_id, fingerprint_sha256, notice)
      )`);
  }
}
