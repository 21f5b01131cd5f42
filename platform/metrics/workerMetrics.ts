import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CertificateExpiry } from '../temporal/temporalCertificateExpiries.ts';
import { registerCertificateExpiry } from './certificateExpiryGauge.ts';

/** The worker's own Prometheus metrics; Temporal's SDK metrics are appended to the same scrape (worker/startWorker.ts). */
export interface WorkerMetrics {
  registry: Registry;
  /** Provisioning runs and invite resends by how they ended: the step and failure kind of a failure, `none` otherwise. */
  provisioningOutcomes: Counter<'command' | 'outcome' | 'step' | 'kind'>;
  /** Each identity-provider step of provisioning, and each member sync (`sync_member`), by step and outcome. */
  provisioningStepDuration: Histogram<'step' | 'outcome'>;
  /** The tenant actors' look-ups of domains' TXT records, by the state they left (or `resolver_unavailable`). */
  domainChecks: Counter<'outcome'>;
  /** Syncs into the identity provider that outlasted their retries, once per failing streak (as audited), by what. */
  providerSyncFailures: Counter<'sync'>;
  /** Rows the retention sweep removed (a directory's replaced token: cleared), by kind (domain/retention/retainedRows.ts). */
  retainedRowsRemoved: Counter<'rows'>;
}

/** What tenant_registry_provider_sync_failures_total counts by: each series exists from the start, so increase() sees the first failure. */
const PROVIDER_SYNCS = ['directory', 'member', 'claims_push', 'domain', 'sso'] as const;

export function createWorkerMetrics(sources: { ready: () => Promise<boolean>; certificates: readonly CertificateExpiry[] }): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'tenant_registry_worker_ready',
    help: "1 while the worker polls Temporal (its /readyz): the Worker is RUNNING and its connection answers; 0 otherwise",
    registers: [registry],
    async collect() {
      this.set((await sources.ready()) ? 1 : 0);
    },
  });
  registerCertificateExpiry(registry, sources.certificates);
  const providerSyncFailures = new Counter({
    name: 'tenant_registry_provider_sync_failures_total',
    help: 'Syncs into the identity provider that failed past their retries, once per failing streak (the idp.*_sync_failed audit events): directory, member, claims_push, domain, sso',
    labelNames: ['sync'] as const,
    registers: [registry],
  });
  for (const sync of PROVIDER_SYNCS) providerSyncFailures.inc({ sync }, 0);
  return {
    registry,
    provisioningOutcomes: new Counter({
      name: 'tenant_registry_provisioning_outcomes_total',
      help: 'Provisioning runs and invite resends by command, outcome, failed step and failure kind',
      labelNames: ['command', 'outcome', 'step', 'kind'] as const,
      registers: [registry],
    }),
    provisioningStepDuration: new Histogram({
      name: 'tenant_registry_provisioning_step_duration_seconds',
      help: "Identity-provider steps of provisioning (organization, user, membership, invite, push_claims) and member syncs (sync_member) by outcome",
      labelNames: ['step', 'outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    domainChecks: new Counter({
      name: 'tenant_registry_domain_checks_total',
      help: "Look-ups of domains' TXT records by the tenant actors, by the state they left the domain in, or resolver_unavailable",
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    providerSyncFailures,
    retainedRowsRemoved: new Counter({
      name: 'tenant_registry_retention_removed_rows_total',
      help: "Rows the retention sweep removed once their retention had passed, by kind: portal_links, actor_outbox (delivered hand-offs), directory_tokens (replaced tokens' hashes cleared)",
      labelNames: ['rows'] as const,
      registers: [registry],
    }),
  };
}
