import { z } from 'zod';
import { MFA_MODES, SESSION_MAX_HOURS_LIMIT } from '../signIn/signInPolicy.ts';

/** A tenant's sign-in policy as its settings answer it, defaults filled in (SPEC-EXTENSIONS §15). */
export const SignInPolicy = z
  .object({
    require_sso: z.boolean().meta({ description: "sign-ins only through one of the tenant's SSO connections (a break_glass member excepted); false unless set" }),
    mfa: z.enum(MFA_MODES).meta({ description: "required: a sign-in needs a second factor (a sign-in through the tenant's SSO answers this as its provider does); off unless set" }),
    session_max_hours: z.int().optional().meta({ description: 'a session older than this many hours is refused at refresh and sign-in; unset: no limit' }),
  })
  .meta({ id: 'SignInPolicy' });

/** The sign-in policy's fields to change; the others stay. Anything else, or a value out of range, is 400 and changes nothing. */
export const SignInPolicyPatch = z
  .strictObject({
    require_sso: z.boolean().optional(),
    mfa: z.enum(MFA_MODES).optional(),
    session_max_hours: z.int().min(1).max(SESSION_MAX_HOURS_LIMIT).nullable().optional().meta({ description: `1 to ${SESSION_MAX_HOURS_LIMIT}; null removes the limit` }),
  })
  .meta({ id: 'SignInPolicyPatch', description: 'the sign-in policy fields to change; the others stay' });
export type SignInPolicyPatch = z.infer<typeof SignInPolicyPatch>;
