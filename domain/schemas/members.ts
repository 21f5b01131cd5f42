import { z } from 'zod';
import { MEMBER_SOURCES, MEMBER_STATUSES } from '../members/memberRecord.ts';
import { DateTime, IdpUserId, queryInteger, Uuid } from './common.ts';
import { RoleSlug } from './roles.ts';

export const MEMBER_LIST_DEFAULT_LIMIT = 50;
export const MEMBER_LIST_MAX_LIMIT = 500;

export const MemberStatus = z.enum(MEMBER_STATUSES);

export const Member = z
  .object({
    tenant_id: Uuid,
    user_id: z.string().meta({ description: "the identity provider's user id" }),
    email: z.string(),
    name: z.string(),
    roles: z.array(z.string()).meta({ description: 'slugs of its roles, sorted' }),
    permissions: z.array(z.string()).meta({ description: "the union of its roles' permissions, sorted" }),
    status: MemberStatus.meta({ description: 'inactive: its tokens for the tenant carry no roles or permissions; pending: invited, not accepted yet' }),
    source: z.enum(MEMBER_SOURCES),
    break_glass: z.boolean().meta({ description: "may sign in without the tenant's required SSO (settings.sign_in.require_sso), audited member.break_glass_used when it does" }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof Member>;

export const MemberList = z
  .object({
    items: z.array(Member),
    next_cursor: z.string().optional().meta({ description: 'pass as cursor for the next page; absent on the last page' }),
  })
  .meta({ id: 'MemberList' });

export const MemberListQuery = z
  .object({
    role: RoleSlug.optional().meta({ description: 'only members holding the role of this slug' }),
    status: MemberStatus.optional(),
    q: z.string().min(1).max(100).optional().meta({ description: 'case-insensitive prefix of the e-mail or the name' }),
    limit: queryInteger(1, MEMBER_LIST_MAX_LIMIT).optional(),
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,1000}$/, 'must be a next_cursor of this listing')
      .optional()
      .meta({ description: 'a next_cursor this listing returned (400 for any other)' }),
  })
  .meta({ id: 'MemberListQuery' });
export type MemberListQuery = z.infer<typeof MemberListQuery>;

export const MemberParams = z.object({ id: Uuid, user_id: IdpUserId });

export const MemberPut = z
  .strictObject({
    roles: z.array(RoleSlug).min(1).max(100).meta({ description: 'slugs of roles the tenant has (its own or shared; 400 for any other); at least one; duplicates count once' }),
  })
  .meta({ id: 'MemberPut', description: "the member's roles, replacing the ones it has" });
export type MemberPut = z.infer<typeof MemberPut>;

export const BreakGlassPut = z
  .strictObject({ break_glass: z.boolean() })
  .meta({ id: 'BreakGlassPut', description: "whether the member may sign in without the tenant's required SSO" });
export type BreakGlassPut = z.infer<typeof BreakGlassPut>;
