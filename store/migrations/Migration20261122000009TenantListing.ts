import { Migration } from '@mikro-orm/migrations';

/**
 * GET /v1/tenants: newest first on (created_at, id), keyset-paginated, optionally by status; a case-insensitive
 * prefix of the slug or the name is a range scan of a pattern index each.
 */
export class Migration20261122000009TenantListing extends Migration {
  override name = 'Migration20261122000009TenantListing';

  up(): void {
    this.addSql(`create index tenants_listing_idx on tenants (created_at desc, id desc)`);
    this.addSql(`create index tenants_status_listing_idx on tenants (status, created_at desc, id desc)`);
    this.addSql(`create index tenants_slug_prefix_idx on tenants (lower(slug) text_pattern_ops)`);
    this.addSql(`create index tenants_name_prefix_idx on tenants (lower(name) text_pattern_ops)`);
  }
}
