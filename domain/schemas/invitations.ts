import { z } from 'zod';
import { INVITATION_STATES } from '../invitations/invitationRecord.ts';
import { DateTime, EmailAddress, queryInteger, Uuid } from './common.ts';
import { RoleSlug } from './roles.ts';

export const INVITATION_LIST_DEFAULT_LIMIT = 50;
export const INVITATION_LIST_MAX_LIMIT = 500;
export const INVITATION_MAX_EXPIRY_DAYS = 30;

export const InvitationState = z.enum(INVITATION_STATES);

/** An e-mail address as invitations hold it: trimmed and lower-cased, so one person has one pending invitation a tenant. */
const InvitedEmail = EmailAddress.transform((value) => value.toLowerCase());

const invitationFields = {
  id: Uuid,
  tenant_id: Uuid,
  email: z.string(),
  roles: z.array(z.string()).meta({ description: 'slugs of the roles the member gets on acceptance, sorted' }),
  state: InvitationState.meta({ description: 'pending until accepted, revoked or expired; every state is kept' }),
  expires_at: DateTime,
  invited_by: z.string().meta({ description: 'the inviting client (the token’s), or provisioning for a tenant’s first IT_ADMIN' }),
  send_count: z.int().meta({ description: 'sends so far: the first and every resend' }),
  last_sent_at: DateTime.nullable(),
  accepted_at: DateTime.nullable(),
  accepted_user_id: z.string().nullable().meta({ description: "the identity provider's user id of who accepted" }),
  revoked_at: DateTime.nullable(),
  created_at: DateTime,
  updated_at: DateTime,
};

export const Invitation = z.object(invitationFields).meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;

export const InvitationSent = z
  .object({
    ...invitationFields,
    invite_url: z
      .string()
      .optional()
      .meta({ description: 'the link that accepts the invitation, answered only here; absent when the identity provider did not answer in time (the e-mail still goes out)' }),
  })
  .meta({ id: 'InvitationSent' });
export type InvitationSent = z.infer<typeof InvitationSent>;

export const InvitationCreate = z
  .strictObject({
    email: InvitedEmail,
    roles: z
      .array(RoleSlug)
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "slugs of roles the tenant has (its own or shared; 400 for any other); default the tenant's default role (MEMBER)" }),
    expires_in_days: z.int().min(1).max(INVITATION_MAX_EXPIRY_DAYS).optional().meta({ description: 'default 7' }),
    send_email: z.boolean().optional().meta({ description: 'default true; false: only the answer carries the link' }),
  })
  .meta({ id: 'InvitationCreate' });
export type InvitationCreate = z.infer<typeof InvitationCreate>;

export const InvitationList = z
  .object({
    items: z.array(Invitation),
    next_cursor: z.string().optional().meta({ description: 'pass as cursor for the next page; absent on the last page' }),
  })
  .meta({ id: 'InvitationList' });

export const InvitationListQuery = z
  .object({
    state: InvitationState.optional(),
    email: InvitedEmail.optional().meta({ description: 'only invitations of this address (case-insensitive)' }),
    limit: queryInteger(1, INVITATION_LIST_MAX_LIMIT).optional(),
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be a next_cursor of this listing')
      .optional()
      .meta({ description: 'a next_cursor this listing returned (400 for any other)' }),
  })
  .meta({ id: 'InvitationListQuery' });
export type InvitationListQuery = z.infer<typeof InvitationListQuery>;
