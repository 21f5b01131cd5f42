import type { Settings } from './config.ts';
import { dnsTxtLookup } from './dnsTxtLookup.ts';

/** The domains' look-ups and times as the settings say (DNS_SERVERS, DNS_TIMEOUT_MS, DOMAIN_*): the API's and the worker's. */
export function domainChecksOf(settings: Pick<Settings, 'DNS_SERVERS' | 'DNS_TIMEOUT_MS' | 'DOMAIN_VERIFICATION_WINDOW_HOURS' | 'DOMAIN_RECHECK_HOURS'>) {
  return {
    lookup: dnsTxtLookup(settings.DNS_SERVERS, settings.DNS_TIMEOUT_MS),
    times: { windowHours: settings.DOMAIN_VERIFICATION_WINDOW_HOURS, recheckHours: settings.DOMAIN_RECHECK_HOURS },
  };
}
