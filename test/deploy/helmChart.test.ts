/**
 * The Helm chart (deploy/helm/tenant-registry) rendered by the pinned Helm (deploy/helm/install-helm builds it from
 * the Go module proxy on first use) with its ci/ values files, and held to what a production install needs: every
 * setting the service reads given a value, secrets only by reference, the owner's URL in the migration hook alone,
 * pods that run unprivileged with probes on the service's own health endpoints, and a network policy that keeps the
 * internal listener internal. The manifests' schemas are .ci/deploy-checks' (kubernetes-validate).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadSettings, SETTING_NAMES } from '../../platform/config.ts';

const root = resolve(import.meta.dirname, '..', '..');
const chart = resolve(root, 'deploy/helm/tenant-registry');

type Manifest = { kind: string; metadata: { name: string; annotations?: Record<string, string> }; spec?: any; data?: Record<string, string> };
type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };

let helm: string;
beforeAll(() => {
  helm = execFileSync('bash', [resolve(root, 'deploy/helm/install-helm')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}, 900_000);

const helmTemplate = (args: string[]) => spawnSync(helm, ['template', 'tr', chart, '--kube-version', '1.34.0', ...args], { encoding: 'utf8' });
function render(valuesFile: string, extra: string[] = []): Manifest[] {
  const result = helmTemplate(['-f', resolve(chart, 'ci', valuesFile), ...extra]);
  if (result.status !== 0) throw new Error(result.stderr);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}
const one = (manifests: Manifest[], kind: string, suffix: string) => {
  const found = manifests.filter((m) => m.kind === kind && m.metadata.name === `tr-tenant-registry${suffix}`);
  expect(found, `${kind} tr-tenant-registry${suffix}`).toHaveLength(1);
  return found[0]!;
};
const podSpecs = (manifests: Manifest[]) => ({
  api: one(manifests, 'Deployment', '-api').spec.template.spec,
  worker: one(manifests, 'Deployment', '-worker').spec.template.spec,
  migration: one(manifests, 'Job', '-migrate').spec.template.spec,
});
/** The environment a container gets: its ConfigMap's data and its own env, by name. */
function environmentOf(manifests: Manifest[], podSpec: any): Map<string, EnvVar> {
  const container = podSpec.containers[0];
  const env = new Map<string, EnvVar>();
  for (const source of container.envFrom ?? []) {
    const configMap = manifests.find((m) => m.kind === 'ConfigMap' && m.metadata.name === source.configMapRef.name)!;
    for (const [name, value] of Object.entries(configMap.data ?? {})) env.set(name, { name, value });
  }
  for (const variable of (container.env ?? []) as EnvVar[]) env.set(variable.name, variable);
  return env;
}

/** Settings a production install leaves at their defaults on purpose, and why. */
const NOT_FOR_PRODUCTION: Record<string, string> = {
  DATA_DIR: 'the embedded PostgreSQL and Temporal only',
  EMBEDDED_PG_PORT: 'the embedded PostgreSQL only',
  TEMPORAL_DEV_PORT: "the local Temporal development server's",
  TEMPORAL_UI_PORT: "the local development server's Web UI",
  CODEC_ENDPOINT_ENABLED: 'the codec endpoint without authentication; with AUTH_ENABLED it is served to registry:admin anyway',
  DATABASE_MIGRATION_URL: "the migration Job's alone (checked below)",
};
const SECRET_SETTINGS = ['DATABASE_URL', 'DATABASE_MIGRATION_URL', 'TEMPORAL_PAYLOAD_KEYS', 'REGISTRY_SECRET_KEYS', 'IDP_ADMIN_CLIENT_SECRET'];
/** Read by api/auth/authConfig.ts and identityProvider/keycloakSettings.ts from the same environment. */
const AUTH_AND_IDP_SETTINGS = [
  'AUTH_ENABLED', 'AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_ALGORITHMS', 'AUTH_CLOCK_TOLERANCE_SECONDS', 'AUTH_JWKS_COOLDOWN_MS', 'AUTH_HTTP_TIMEOUT_MS',
  'AUTH_REQUIRE_SCOPES', 'IDP_ADMIN_URL', 'IDP_ADMIN_REALM', 'IDP_ADMIN_CLIENT_ID', 'IDP_ADMIN_CLIENT_SECRET', 'IDP_INVITE_CLIENT_ID',
  'IDP_INVITE_REDIRECT_URI', 'IDP_INVITE_LIFESPAN_SECONDS', 'IDP_HTTP_TIMEOUT_MS',
];

describe('the Helm chart', () => {
  it('gives every setting the service reads in production a value, the API and the worker the same shared ones', () => {
    const manifests = render('production-values.yaml');
    const { api, worker } = podSpecs(manifests);
    const apiEnv = environmentOf(manifests, api);
    const workerEnv = environmentOf(manifests, worker);
    const given = new Set([...apiEnv.keys(), ...workerEnv.keys()]);
    const wanted = [...SETTING_NAMES, ...AUTH_AND_IDP_SETTINGS].filter((name) => !(name in NOT_FOR_PRODUCTION));
    expect(wanted.filter((name) => !given.has(name))).toEqual([]);
    for (const name of ['PORT', 'INTERNAL_PORT', 'METRICS_PORT', 'SHUTDOWN_GRACE_MS']) expect(apiEnv.has(name), name).toBe(true);
    expect(workerEnv.has('WORKER_METRICS_PORT')).toBe(true);
    // Both read the same Temporal, database, keys and identity provider.
    for (const name of ['TEMPORAL_ADDRESS', 'TEMPORAL_TASK_QUEUE', 'TEMPORAL_TLS_CA_FILE', 'TEMPORAL_TLS_CERT_FILE', 'DATABASE_URL', 'TEMPORAL_PAYLOAD_KEYS', 'IDP_ADMIN_URL']) {
      expect(workerEnv.get(name), name).toEqual(apiEnv.get(name));
    }
    expect(apiEnv.get('HOST')?.value).toBe('0.0.0.0');
  });

  it("keeps the service's own defaults in its values, so an install changes only what it sets", () => {
    const manifests = render('minimal-values.yaml');
    const env = environmentOf(manifests, podSpecs(manifests).api);
    const defaults = loadSettings({}) as Record<string, unknown>;
    const differing = Object.entries(defaults)
      .filter(([name]) => env.has(name) && !(name in NOT_FOR_PRODUCTION))
      .filter(([name]) => !['HOST', 'INTERNAL_PORT', 'TRUST_PROXY', 'TEMPORAL_TLS'].includes(name))
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value), env.get(name)!.value] as const)
      .filter(([, expected, actual]) => expected !== actual);
    expect(differing).toEqual([]);
    // Where the chart chooses otherwise, it is the production choice: TLS to Temporal, behind an ingress, the internal port apart.
    expect([env.get('TEMPORAL_TLS')?.value, env.get('TRUST_PROXY')?.value, env.get('INTERNAL_PORT')?.value]).toEqual(['true', 'true', '8081']);
  });

  it("takes every secret by reference and gives the schema owner's URL to the migration hook alone", () => {
    for (const values of ['production-values.yaml', 'minimal-values.yaml']) {
      const manifests = render(values);
      expect(manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
      const { api, worker, migration } = podSpecs(manifests);
      for (const [component, spec] of Object.entries({ api, worker, migration })) {
        const env = environmentOf(manifests, spec);
        for (const name of SECRET_SETTINGS.filter((n) => env.has(n))) {
          expect(env.get(name), `${component} ${name}`).toEqual({ name, valueFrom: { secretKeyRef: expect.objectContaining({ key: expect.any(String) }) } });
        }
        expect(env.has('DATABASE_MIGRATION_URL'), component).toBe(component === 'migration');
      }
      expect(environmentOf(manifests, migration).get('DATABASE_MIGRATION_URL')?.valueFrom?.secretKeyRef?.name).toBe('tenant-registry-migration');
      for (const configMap of manifests.filter((m) => m.kind === 'ConfigMap')) {
        expect(Object.keys(configMap.data ?? {}).filter((name) => SECRET_SETTINGS.includes(name))).toEqual([]);
      }
    }
  });

  it('runs the migration (npm run migrate) as a pre-install and pre-upgrade hook Job', () => {
    const job = one(render('production-values.yaml'), 'Job', '-migrate');
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', '--disable-proto=throw', 'scripts/migrate.ts']);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  it('runs every pod unprivileged, with requests, limits and the probes of the health endpoints the processes serve', () => {
    const { api, worker, migration } = podSpecs(render('production-values.yaml'));
    for (const [component, spec] of Object.entries({ api, worker, migration })) {
      expect(spec.securityContext, component).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number) });
      expect(spec.securityContext.runAsUser, component).toBeGreaterThan(0);
      expect(spec.automountServiceAccountToken, component).toBe(false);
      const container = spec.containers[0];
      expect(container.securityContext, component).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      expect(Object.keys(container.resources.requests).sort(), component).toEqual(['cpu', 'memory']);
      expect(Object.keys(container.resources.limits).sort(), component).toEqual(['cpu', 'memory']);
    }
    const probes = (spec: any) => {
      const container = spec.containers[0];
      const portOf = (name: string) => container.ports.find((p: { name: string }) => p.name === name).containerPort;
      return {
        liveness: { path: container.livenessProbe.httpGet.path, port: portOf(container.livenessProbe.httpGet.port) },
        readiness: { path: container.readinessProbe.httpGet.path, port: portOf(container.readinessProbe.httpGet.port) },
      };
    };
    // The API's on PORT (api/routes/health), the worker's on WORKER_METRICS_PORT (worker/workerMetricsEndpoint.ts).
    expect(probes(api)).toEqual({ liveness: { path: '/healthz', port: 8080 }, readiness: { path: '/readyz', port: 8080 } });
    expect(probes(worker)).toEqual({ liveness: { path: '/healthz', port: 9465 }, readiness: { path: '/readyz', port: 9465 } });
  });

  it("keeps the internal listener internal: its port admits internalFrom only, and the public Service routes to the public port alone", () => {
    const manifests = render('production-values.yaml');
    const policy = one(manifests, 'NetworkPolicy', '-api');
    const rules = policy.spec.ingress as { ports: { port: string }[]; from?: unknown[] }[];
    const ruleOf = (port: string) => rules.filter((rule) => rule.ports.some((p) => p.port === port));
    expect(ruleOf('internal')).toHaveLength(1);
    expect(ruleOf('internal')[0]!.from).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'keycloak' } } },
      { podSelector: { matchLabels: { 'tenant-registry/verifies-keys': 'true' } } },
    ]);
    expect(ruleOf('metrics')[0]!.from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
    expect(rules.every((rule) => rule.ports.length === 1)).toBe(true);
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    expect(one(manifests, 'Service', '-api').spec.ports.map((p: { targetPort: string }) => p.targetPort)).toEqual(['http']);
    expect(one(manifests, 'Service', '-api-internal').spec.ports.map((p: { targetPort: string }) => p.targetPort)).toEqual(['internal']);
    const worker = one(manifests, 'NetworkPolicy', '-worker');
    expect(worker.spec.ingress).toEqual([{ ports: [{ port: 'metrics', protocol: 'TCP' }], from: ruleOf('metrics')[0]!.from }]);
  });

  it('keeps the API serving and at most one worker away through voluntary disruptions', () => {
    const manifests = render('production-values.yaml');
    expect(one(manifests, 'PodDisruptionBudget', '-api').spec.minAvailable).toBe(1);
    expect(one(manifests, 'PodDisruptionBudget', '-worker').spec.maxUnavailable).toBe(1);
    expect(one(manifests, 'Deployment', '-api').spec.replicas).toBeGreaterThan(1);
  });

  it('refuses to render without what it cannot guess, naming it', () => {
    const noTemporal = helmTemplate(['--set', 'auth.issuer=https://id.example.com', '--set', 'publicBaseUrl=https://registry.example.com']);
    expect(noTemporal.status).not.toBe(0);
    expect(noTemporal.stderr).toContain('temporal.address is required');
    const noIssuer = helmTemplate(['--set', 'temporal.address=temporal:7233', '--set', 'publicBaseUrl=https://registry.example.com']);
    expect(noIssuer.stderr).toContain('auth.issuer is required with auth.enabled');
    const noBaseUrl = helmTemplate(['--set', 'temporal.address=temporal:7233', '--set', 'auth.issuer=https://id.example.com']);
    expect(noBaseUrl.stderr).toContain('publicBaseUrl is required with auth.enabled');
  });
});
