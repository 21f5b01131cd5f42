/**
 * Which provisioning runs already sent their invite e-mail. Provisioning runs its steps as local activities inside
 * one workflow task; should Temporal lose that task's completion, the task runs again and so would every step. The
 * other steps are idempotent by what they find in the identity provider; an e-mail is not, so the invite step looks
 * here first and records here after sending: a re-run of a run that sent skips the e-mail. An operator's resend is
 * the only second e-mail.
 */
export interface InviteLedger {
  /** True when the invite of this provisioning run (its outcome id) was sent. */
  wasSent(runKey: string): Promise<boolean>;
  recordSent(runKey: string, tenantId: string, userId: string): Promise<void>;
}
