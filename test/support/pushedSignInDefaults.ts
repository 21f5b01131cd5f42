import type { PushedMembership } from '../../identityProvider/identityProvider.ts';

/** What a pushed membership says of sign-ins when nothing is set: no policy, no break-glass mark, no product's clients. */
export const PUSHED_SIGN_IN_DEFAULTS: Pick<PushedMembership, 'break_glass' | 'sign_in' | 'entitled_clients' | 'refused_clients' | 'fail_closed_clients'> = {
  break_glass: false,
  sign_in: { require_sso: false, mfa: 'off' },
  entitled_clients: [],
  refused_clients: [],
  fail_closed_clients: [],
};
