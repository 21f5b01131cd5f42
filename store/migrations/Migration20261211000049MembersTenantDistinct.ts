import { Migration } from '@mikro-orm/migrations';

/**
 * Where most tenants have a member or two, the statistics say a tenant id is about unique, and a generic plan of
 * `tenant_id = $1 and user_id = $2` (a member's look-up, and the foreign key check of every member_roles row) then
 * costs every index led by tenant_id alike and may take members_tenant_name_idx, filtering on user_id: each look-up
 * in a large tenant read every member of it, and adding the roles of its members grew with the square of their
 * number. Fixed at 20 members a tenant, the estimate lets the primary key's two columns win; analyzed at once so the plans follow now.
 */
export class Migration20261211000049MembersTenantDistinct extends Migration {
  override name = 'Migration20261211000049MembersTenantDistinct';

  up(): void {
    this.addSql('alter table members alter column tenant_id set (n_distinct = -0.05)');
    this.addSql('analyze members');
  }
}
