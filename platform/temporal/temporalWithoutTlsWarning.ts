import { temporalTls, type TemporalTlsSettings } from './temporalTls.ts';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * What the API and the worker say at start when they reach a Temporal of the deployment's own (TEMPORAL_ADDRESS)
 * without TLS: an error when it is across a network, a warning on loopback; nothing on the embedded development server.
 */
export function temporalWithoutTlsWarning(settings: TemporalTlsSettings & { TEMPORAL_ADDRESS?: string }): { level: 'warn' | 'error'; message: string } | undefined {
  const address = settings.TEMPORAL_ADDRESS;
  if (!address || temporalTls(settings)) return undefined;
  const host = address.replace(/:\d+$/, '');
  return {
    level: LOOPBACK_HOSTS.has(host) ? 'warn' : 'error',
    message:
      `TEMPORAL RUNS WITHOUT TLS (TEMPORAL_ADDRESS=${address}, no TEMPORAL_TLS*): whoever is on the network path reads and alters this process's ` +
      'traffic with Temporal (payloads stay encrypted; workflow ids, which are tenant ids, and timings do not), and whoever reaches the ' +
      'frontend can list, signal, reset and terminate the tenant actors (payloads without TEMPORAL_PAYLOAD_KEYS are refused, argument-less ' +
      'signals are not). Set TEMPORAL_TLS (mutual TLS with TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE), or keep the frontend on a ' +
      'network only the service reaches (docs/security.md, "What Temporal access means").',
  };
}
