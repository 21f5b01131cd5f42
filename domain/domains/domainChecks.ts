import type { DomainCheckTimes } from './domainCheck.ts';
import type { TxtLookup } from './txtLookup.ts';

/** What a domain's look-ups run on: the resolver (DNS_SERVERS) and the window and re-check times. */
export interface DomainChecks {
  lookup: TxtLookup;
  times: DomainCheckTimes;
}
