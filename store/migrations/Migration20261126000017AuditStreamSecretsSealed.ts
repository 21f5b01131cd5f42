import { Migration } from '@mikro-orm/migrations';

/**
 * Audit stream secrets are stored encrypted (SPEC-EXTENSIONS §12) in `secret_encrypted`. Migrations have no key, so
 * the plaintext column stays, nullable, for rows written before: the repository seals them at the API's start and
 * empties `secret` (docs/decisions.md, Audit log).
 */
export class Migration20261126000017AuditStreamSecretsSealed extends Migration {
  override name = 'Migration20261126000017AuditStreamSecretsSealed';

  up(): void {
    this.addSql('alter table audit_streams add column secret_encrypted text');
    this.addSql('alter table audit_streams alter column secret drop not null');
    this.addSql('alter table audit_streams add constraint audit_streams_secret_stored check (secret is not null or secret_encrypted is not null)');
  }
}
