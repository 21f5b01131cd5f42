import { Migration } from '@mikro-orm/migrations';

/**
 * API keys with an expiry and a rotation lineage (SPEC-EXTENSIONS §3). A rotation ends the old key by moving its
 * `expires_at` to the end of the grace period, so expiry is the one time rule verify judges. One successor per key:
 * the unique index makes two concurrent rotations of one key give one new key and one conflict.
 * The change trigger now also fires on `expires_at`, so every replica's cache drops a key whose end moved.
 */
export class Migration20261122000006ApiKeyExpiry extends Migration {
  override name = 'Migration20261122000006ApiKeyExpiry';

  up(): void {
    this.addSql(`alter table api_keys add column expires_at timestamptz, add column rotated_from uuid references api_keys(id)`);
    this.addSql(`create unique index api_keys_rotated_from_unique on api_keys (rotated_from) where rotated_from is not null`);
    this.addSql(`drop trigger api_keys_notify_change on api_keys`);
    this.addSql(`create trigger api_keys_notify_change after update on api_keys for each row
      when (old.revoked_at is distinct from new.revoked_at or old.expires_at is distinct from new.expires_at
         or old.tenant_id is distinct from new.tenant_id or old.product is distinct from new.product
         or old.scopes is distinct from new.scopes or old.key_hash is distinct from new.key_hash
         or old.prefix is distinct from new.prefix)
      execute function registry_notify_api_key_change()`);
  }
}
