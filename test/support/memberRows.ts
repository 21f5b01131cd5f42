import type { MemberStatus } from '../../domain/members/memberRecord.ts';
import type { Orm } from '../../store/orm.ts';

/**
 * A member written straight into the tables, as the members API would store it, with roles by slug (the tenant's own
 * or shared ones). Its triggers notify every replica's cache as any change of the tables does.
 */
export async function insertMember(orm: Orm, member: { tenantId: string; userId: string; status: MemberStatus; roles: string[] }): Promise<void> {
  const em = orm.em.fork();
  await em.execute(`insert into members (tenant_id, user_id, email, name, status, source) values (?, ?, ?, ?, ?, 'registry')`, [
    member.tenantId,
    member.userId,
    `${member.userId.replace(/[^a-z0-9]/gi, '-')}@example.test`,
    member.userId,
    member.status,
  ]);
  for (const slug of member.roles) {
    await em.execute(
      `insert into member_roles (tenant_id, user_id, role_id)
       select ?, ?, id from roles where slug = ? and (tenant_id is null or tenant_id = ?)`,
      [member.tenantId, member.userId, slug, member.tenantId],
    );
  }
}

export async function setMemberStatus(orm: Orm, tenantId: string, userId: string, status: MemberStatus): Promise<void> {
  await orm.em.fork().execute(`update members set status = ?, updated_at = now() where tenant_id = ? and user_id = ?`, [status, tenantId, userId]);
}
