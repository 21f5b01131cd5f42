import { AppError } from '../../domain/errors.ts';
import type { FieldErrors } from './portalForms.ts';
import type { PortalActionResult } from './portalIntentPage.ts';

/**
 * A service's refusal (a rule of sections 7–10: a taken address, an unknown role, an unverified domain; a limit of
 * §13 reached) as the error of the form field it is about; anything else is not the person's to fix and is thrown on.
 */
export function refusalOf(error: unknown, field: string): FieldErrors {
  if (error instanceof AppError && ['invalid_input', 'conflict', 'limit_reached', 'not_found', 'rate_limited', 'forbidden'].includes(error.code)) return { [field]: error.message };
  throw error;
}

/** Runs a service's change: done (the notice `done`), or its refusal shown beside `field` with what was typed. */
export async function doneUnlessRefused(done: string, field: string, values: URLSearchParams, change: () => Promise<unknown>): Promise<PortalActionResult> {
  try {
    await change();
  } catch (error) {
    return { errors: refusalOf(error, field), values };
  }
  return { done };
}
