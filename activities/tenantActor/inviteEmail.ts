import { setTimeout as sleep } from 'node:timers/promises';
import { log } from '@temporalio/activity';
import { retryDelayMs, type RetryPolicy } from '../../domain/retryPolicy.ts';
import type { InviteLink } from '../../identityProvider/identityProvider.ts';
import { isStoreUnreachable } from '../../store/storeUnreachable.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';
import { asActivityFailure } from './activityFailures.ts';

/** Backoff of the invite ledger's statements while its database does not answer: 100 ms doubling, at most 2 s apart. */
const LEDGER_RETRY: RetryPolicy = { initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 2_000 };

/**
 * The invite e-mail of one user, the step provisioning's invite, an operator's resend and an invitation's send all go
 * through. Sent once per run key (`runKey`, see ProviderStepsRequest and InviteLedger): a re-run of a run that sent
 * answers `alreadySent` and no link, instead of mailing the person again. Without a run key (a resend) it always sends.
 */
export function sendInvite(
  context: ActorActivityContext,
  userId: string,
  tenantId?: string,
  runKey?: string,
  link?: InviteLink,
): Promise<{ inviteUrl?: string; alreadySent?: true }> {
  const { stores, idp, step } = context;
  return step('invite', async () => {
    const ledger = stores.invites;
    if (ledger && runKey && (await patientlyWithLedger(context, 'read', () => ledger.wasSent(runKey)))) {
      log.info('invite already sent by this provisioning run; not sending it again', { tenantId, runKey });
      return { alreadySent: true as const };
    }
    const sent = await asActivityFailure(() => idp.sendInvite(userId, link));
    // The e-mail is out: from here on no failure may fail the attempt, as its retry would send the e-mail again.
    if (ledger && runKey && tenantId) {
      await patientlyWithLedger(context, 'record', () => ledger.recordSent(runKey, tenantId, userId)).catch((error: unknown) =>
        log.error('invite sent but not recorded in the invite ledger: a lost workflow task of this run would send it again', {
          tenantId,
          runKey,
          error: (error as Error).message,
        }),
      );
    }
    return sent;
  });
}

/**
 * The invite ledger's statements, tried again while its database does not answer (as when PostgreSQL restarts),
 * for up to `ledgerPatienceMs`: an outage of the registry's own database spends neither the provider's retry budget
 * nor, once the e-mail is sent, a second e-mail (a failed attempt is retried from the start, e-mail included).
 */
async function patientlyWithLedger<T>({ ledgerPatienceMs }: ActorActivityContext, what: 'read' | 'record', call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + ledgerPatienceMs;
  for (let failures = 1; ; failures++) {
    try {
      return await call();
    } catch (error) {
      const delay = retryDelayMs(LEDGER_RETRY, failures);
      if (!isStoreUnreachable(error) || Date.now() + delay > deadline) throw error;
      log.warn('invite ledger unreachable; trying again', { what, retryInMs: delay, error: (error as Error).message });
      await sleep(delay);
    }
  }
}
