/**
 * docker-compose.yml cannot be started on the machines that run these tests (no Docker engine), so its rules are
 * checked here instead: the stack is complete, starts in order, hands the service every setting its own loaders
 * require, and mounts files that exist. The file is read as Compose reads it: YAML, then ${VAR:-default}
 * interpolation with the variables of .env.example, each placeholder replaced by a value of its own (what
 * `cp .env.example .env`, editing every value, and `docker compose up` get); the placeholders as they are must be
 * refused by the service.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSettings } from '../../platform/config.ts';
import { loadKeycloakSettings } from '../../identityProvider/keycloakSettings.ts';
import { loadAuthConfig } from '../../api/auth/authConfig.ts';
import { codecEndpointServed } from '../../api/auth/codecEndpointAccess.ts';
import { securityWarnings } from '../../api/securityWarnings.ts';
import { temporalTls } from '../../platform/temporal/temporalTls.ts';
import { secretsHoldingPlaceholders } from '../../platform/placeholderSecrets.ts';
import { temporalWithoutTlsWarning } from '../../platform/temporal/temporalWithoutTlsWarning.ts';

const root = resolve(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

type Environment = Record<string, string>;
type HealthCheck = { test?: string | string[]; disable?: boolean };
type PortSpec = string | number | { target: number; published?: string | number; host_ip?: string };
type VolumeSpec = string | { type: string; source?: string; target: string; bind?: { create_host_path?: boolean } };
interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: HealthCheck;
  ports?: PortSpec[];
  volumes?: VolumeSpec[];
  networks?: string[] | Record<string, { aliases?: string[] } | null>;
  restart?: string;
}

/** Compose's interpolation: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
function interpolate(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (match, braced: string | undefined, operator: string | undefined, argument: string | undefined, bare: string | undefined) => {
        if (match === '$$') return '$';
        const name = (braced ?? bare)!;
        const current = env[name];
        const missing = operator?.startsWith(':') ? !current : current === undefined;
        if (operator?.endsWith('-') && missing) return argument ?? '';
        if (operator?.endsWith('?') && missing) throw new Error(`${name} is required: ${argument}`);
        return current ?? '';
      },
    );
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env)]));
  }
  return value;
}

/** KEY=value lines, as Compose reads an .env file. */
const dotEnv = (text: string) =>
  Object.fromEntries(text.split('\n').filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
const exampleEnv = dotEnv(read('.env.example'));
/** The placeholders .env.example ships, to be replaced before the first `up`. */
const isPlaceholder = (value: string) => /change-me|replace-with/i.test(value);
/** .env.example as an operator fills it in: every placeholder replaced (a key where the value is `<id>:<key>`). */
const filledEnv = Object.fromEntries(
  Object.entries(exampleEnv).map(([name, value]) => {
    if (!isPlaceholder(value)) return [name, value];
    const keyId = /^([\w.-]+):REPLACE-WITH/i.exec(value)?.[1];
    return [name, keyId ? `${keyId}:${randomBytes(32).toString('base64')}` : randomBytes(18).toString('base64url')];
  }),
);
type ComposeFile = { services: Record<string, ComposeService> };
const composeWith = (env: Record<string, string>) => interpolate(parse(read('docker-compose.yml')), env) as ComposeFile;
const compose = composeWith(filledEnv);
const services = compose.services;
const serviceNames = Object.keys(services);

function service(name: string): ComposeService {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

function environmentOf(name: string, file: ComposeFile = compose): Environment {
  const environment = file.services[name]?.environment ?? {};
  const entries = Array.isArray(environment)
    ? environment.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const)
    : Object.entries(environment).filter(([, value]) => value !== null).map(([key, value]) => [key, String(value)] as const);
  return Object.fromEntries(entries);
}

function dependenciesOf(name: string): Array<{ target: string; condition: string }> {
  const dependsOn = service(name).depends_on ?? [];
  if (Array.isArray(dependsOn)) return dependsOn.map((target) => ({ target, condition: 'service_started' }));
  return Object.entries(dependsOn).map(([target, spec]) => ({ target, condition: spec?.condition ?? 'service_started' }));
}

function hasHealthCheck(name: string): boolean {
  const check = service(name).healthcheck;
  if (!check || check.disable) return false;
  const test = Array.isArray(check.test) ? check.test : [check.test];
  return test.length > 0 && test[0] !== 'NONE';
}

function healthCheckCommand(name: string): string {
  const test = service(name).healthcheck?.test ?? [];
  return Array.isArray(test) ? test.join(' ') : test;
}

function publishedPorts(name: string): Array<{ hostIp: string; host: number; container: number }> {
  return (service(name).ports ?? []).flatMap((spec) => {
    if (typeof spec === 'object') {
      if (spec.published === undefined) return [];
      return [{ hostIp: spec.host_ip ?? '0.0.0.0', host: Number(spec.published), container: spec.target }];
    }
    const parts = String(spec).replace(/\/(tcp|udp)$/, '').split(':');
    if (parts.length === 1) return [];
    const [container, host, hostIp = '0.0.0.0'] = [...parts].reverse() as [string, string, string?];
    return [{ hostIp, host: Number(host), container: Number(container) }];
  });
}

function bindMounts(name: string): Array<{ source: string; target: string }> {
  return (service(name).volumes ?? []).flatMap((spec) => {
    if (typeof spec === 'object') return spec.type === 'bind' && spec.source ? [{ source: spec.source, target: spec.target }] : [];
    const [source = '', target = ''] = spec.split(':');
    return source.startsWith('.') || source.startsWith('/') ? [{ source, target }] : [];
  });
}

function networkAliases(name: string): string[] {
  const networks = service(name).networks;
  if (!networks || Array.isArray(networks)) return [];
  return Object.values(networks).flatMap((network) => network?.aliases ?? []);
}

/** Names a client inside the stack's network reaches a service by. */
const namesOf = (name: string) => [name, ...networkAliases(name)];

/** Every variable the service's own loaders read: platform/config.ts, IDP_* and AUTH_*. */
function settingNamesReadByCode(): Set<string> {
  const names = new Set<string>();
  for (const [, name] of read('platform/config.ts').matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)) names.add(name!);
  for (const file of ['identityProvider/keycloakSettings.ts', 'api/auth/authConfig.ts']) {
    for (const [name] of read(file).matchAll(/\b(?:IDP|AUTH)_[A-Z0-9_]+\b/g)) names.add(name);
  }
  return names;
}

const SERVICE_PROCESSES = ['api', 'worker'] as const;
type RealmClient = {
  clientId: string;
  publicClient?: boolean;
  standardFlowEnabled?: boolean;
  serviceAccountsEnabled?: boolean;
  redirectUris?: string[];
  attributes?: Record<string, string>;
  protocolMappers?: Array<{ protocolMapper: string; config: Record<string, string | undefined> }>;
};
const KEYCLOAK_REALM_FILE = 'keycloak/realm-tenant-registry.json';
const KEYCLOAK_EXTENSION_POM = 'keycloak/extension/pom.xml';

describe('docker-compose.yml', () => {
  it('declares every service the stack needs, each from its expected image', () => {
    const expectedImages: Record<string, RegExp> = {
      postgres: /^postgres:\d+/,
      temporal: /^temporalio\/(server|auto-setup):\d/,
      'temporal-ui': /^temporalio\/ui:\d/,
      keycloak: /^quay\.io\/keycloak\/keycloak:26\./,
      mailpit: /^axllent\/mailpit:/,
    };
    for (const [name, image] of Object.entries(expectedImages)) expect(service(name).image, name).toMatch(image);
    for (const name of SERVICE_PROCESSES) expect(service(name).build, name).toBeDefined();
  });

  it('every depends_on target is a service of the file', () => {
    for (const name of serviceNames) {
      for (const { target } of dependenciesOf(name)) expect(serviceNames, `${name} depends on ${target}`).toContain(target);
    }
  });

  it('a dependency with a healthcheck is waited for with service_healthy', () => {
    for (const name of serviceNames) {
      for (const { target, condition } of dependenciesOf(name)) {
        if (hasHealthCheck(target)) expect(condition, `${name} → ${target}`).toBe('service_healthy');
      }
    }
  });

  it('a dependency without a healthcheck is a one-shot job waited for with service_completed_successfully', () => {
    for (const name of serviceNames) {
      for (const { target, condition } of dependenciesOf(name)) {
        if (hasHealthCheck(target)) continue;
        expect(condition, `${name} → ${target}`).toBe('service_completed_successfully');
        // A job ends: a restart policy that brings it back forever would never complete.
        expect(service(target).restart ?? 'no', target).toMatch(/^(no|on-failure(:\d+)?)$/);
      }
    }
  });

  it('every long-running service with dependants has a healthcheck', () => {
    const oneShotJobs = new Set(
      serviceNames.flatMap((name) => dependenciesOf(name).filter((d) => d.condition === 'service_completed_successfully').map((d) => d.target)),
    );
    const withDependants = new Set(serviceNames.flatMap((name) => dependenciesOf(name).map((d) => d.target)));
    for (const target of withDependants) {
      if (!oneShotJobs.has(target)) expect(hasHealthCheck(target), target).toBe(true);
    }
    // The stack's own entry points are checked too, though nothing depends on the API.
    expect(hasHealthCheck('api')).toBe(true);
  });

  it('the API and the worker start after PostgreSQL, the schema\'s migration, Temporal (with its namespace) and Keycloak are ready', () => {
    for (const name of SERVICE_PROCESSES) {
      const dependencies = Object.fromEntries(dependenciesOf(name).map((d) => [d.target, d.condition]));
      expect(dependencies, name).toMatchObject({
        postgres: 'service_healthy',
        migrate: 'service_completed_successfully',
        temporal: 'service_healthy',
        'temporal-namespace': 'service_completed_successfully',
        keycloak: 'service_healthy',
      });
    }
  });

  it('the API and the worker are built from the Dockerfile on Node 24 and run what npm run api / npm run worker run', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:24[\w.-]*/m);
    expect(dockerfile).toMatch(/npm ci\b/);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const name of SERVICE_PROCESSES) {
      const build = service(name).build!;
      const context = typeof build === 'string' ? build : (build.context ?? '.');
      const dockerfilePath = typeof build === 'string' ? 'Dockerfile' : (build.dockerfile ?? 'Dockerfile');
      expect(resolve(root, context), name).toBe(root);
      expect(existsSync(join(root, context, dockerfilePath)), dockerfilePath).toBe(true);
      // `npm run <name>`'s own command, started without npm in between so that `docker stop`'s SIGTERM reaches Node.
      expect(scripts[name], `package.json script ${name}`).toBeDefined();
      expect(service(name).command, name).toEqual(scripts[name]!.split(' '));
    }
  });

  it('loadSettings accepts the environment of the API and of the worker and selects external PostgreSQL and Temporal', () => {
    for (const name of SERVICE_PROCESSES) {
      const settings = loadSettings(environmentOf(name));
      // Without either one the container would try to start an embedded PostgreSQL or a Temporal dev server.
      expect(settings.DATABASE_URL, name).toBeDefined();
      expect(settings.TEMPORAL_ADDRESS, name).toBeDefined();
    }
  });

  it('DATABASE_URL and TEMPORAL_ADDRESS point at the stack\'s PostgreSQL and Temporal', () => {
    for (const name of SERVICE_PROCESSES) {
      const settings = loadSettings(environmentOf(name));
      const database = new URL(settings.DATABASE_URL!);
      expect(database.protocol, name).toMatch(/^postgres(ql)?:$/);
      expect(namesOf('postgres'), name).toContain(database.hostname);
      expect(Number(database.port || 5432), name).toBe(5432);
      const [host, port] = settings.TEMPORAL_ADDRESS!.split(':');
      expect(namesOf('temporal'), name).toContain(host);
      expect(Number(port), name).toBe(7233);
    }
  });

  it('loadKeycloakSettings accepts the environment of the API and of the worker and selects Keycloak', () => {
    for (const name of SERVICE_PROCESSES) {
      const environment = environmentOf(name);
      expect(environment.IDP_ADMIN_URL, name).toBeTruthy();
      const keycloak = loadKeycloakSettings(environment);
      expect(keycloak, name).toBeDefined();
      const url = new URL(keycloak!.url);
      expect(namesOf('keycloak'), name).toContain(url.hostname);
      expect(url.port, name).toBe(environmentOf('keycloak').KC_HTTP_PORT ?? '8080');
    }
  });

  it('authentication is on: the API needs a token of the realm for every route (scopes required) and serves the codec only to registry:admin', () => {
    const environment = environmentOf('api');
    const auth = loadAuthConfig(environment);
    expect(auth).toMatchObject({ enabled: true, audience: 'tenant-registry', requireScopes: true, issuer: `${environmentOf('keycloak').KC_HOSTNAME}/realms/${environment.IDP_ADMIN_REALM}` });
    const settings = loadSettings(environment);
    expect(settings.CODEC_ENDPOINT_ENABLED).toBe(false);
    expect(codecEndpointServed(settings, auth)).toBe(true);
    expect(securityWarnings(settings, auth).map((w) => w.message)).not.toContainEqual(expect.stringMatching(/AUTHENTICATION IS OFF|CODEC ENDPOINT IS OPEN/));
    // Compose cannot turn it off from .env: the value is written here, not taken from the environment.
    expect(environmentOf('api', composeWith({ ...filledEnv, AUTH_ENABLED: 'false' })).AUTH_ENABLED).toBe('true');
  });

  it('the API, the worker and the migration step refuse to start on any placeholder of .env.example that reaches them, naming the setting', () => {
    const placeholders = Object.keys(exampleEnv).filter((name) => isPlaceholder(exampleEnv[name]!));
    let reachingTheService = 0;
    for (const variable of placeholders) {
      const unreplaced = composeWith({ ...filledEnv, [variable]: exampleEnv[variable]! });
      for (const name of [...SERVICE_PROCESSES, 'migrate']) {
        const environment = environmentOf(name, unreplaced);
        const carriers = Object.keys(environment).filter((setting) => environment[setting] !== environmentOf(name)[setting]);
        if (carriers.length === 0) continue;
        reachingTheService += 1;
        for (const setting of carriers) expect(() => loadSettings(environment), `${name}: ${variable} in ${setting}`).toThrow(new RegExp(`invalid configuration: .*\\b${setting}\\b.* placeholder`));
      }
    }
    // The runtime role's password, the admin client's secret and both key sets, each in the API and in the worker;
    // both database passwords in the migration step.
    expect(reachingTheService).toBeGreaterThanOrEqual(2 * 4 + 2);
    // .env.example copied as it is: refused, and the message names every setting but shows no value.
    for (const name of SERVICE_PROCESSES) {
      const refusal = (() => {
        try {
          loadSettings(environmentOf(name, composeWith(exampleEnv)));
        } catch (error) {
          return (error as Error).message;
        }
        return 'accepted';
      })();
      for (const setting of ['DATABASE_URL', 'TEMPORAL_PAYLOAD_KEYS', 'REGISTRY_SECRET_KEYS', 'IDP_ADMIN_CLIENT_SECRET']) expect(refusal, name).toContain(setting);
      expect(refusal, name).not.toMatch(/change-me-|REPLACE-WITH-BASE64/);
    }
  });

  it('the preflight job refuses every placeholder of .env.example, those only Keycloak or PostgreSQL read included, before any service holding a secret starts', () => {
    expect(service('preflight').command).toEqual(['node', '--disable-proto=throw', 'scripts/refuse-placeholder-secrets.ts']);
    const placeholders = Object.keys(exampleEnv).filter((name) => isPlaceholder(exampleEnv[name]!));
    expect(secretsHoldingPlaceholders(environmentOf('preflight', composeWith(exampleEnv))).sort()).toEqual(placeholders.sort());
    expect(secretsHoldingPlaceholders(environmentOf('preflight'))).toEqual([]);
    // Everything that holds a secret starts after PostgreSQL, which waits for the preflight.
    expect(Object.fromEntries(dependenciesOf('postgres').map((d) => [d.target, d.condition]))).toMatchObject({ preflight: 'service_completed_successfully' });
    const startsAfterPostgres = (name: string, seen = new Set<string>()): boolean =>
      name === 'postgres' || dependenciesOf(name).some((d) => !seen.has(d.target) && (seen.add(d.target), startsAfterPostgres(d.target, seen)));
    for (const name of serviceNames) {
      const holdsSecret = Object.values(service(name).environment ?? {}).some((value) => /\$\{[A-Z_]*(PASSWORD|SECRET|_KEYS)[:}]/.test(String(value)));
      if (holdsSecret && name !== 'preflight') expect(startsAfterPostgres(name), name).toBe(true);
    }
  });

  it('Temporal: TLS settings for the API and the worker, or else both say loudly at start that it runs without', () => {
    for (const name of SERVICE_PROCESSES) {
      const environment = environmentOf(name);
      const settings = loadSettings(environment);
      // The choice is written in the file, not left to a default.
      expect(Object.keys(environment).filter((setting) => setting.startsWith('TEMPORAL_TLS')), name).not.toEqual([]);
      if (temporalTls(settings)) continue;
      const warning = temporalWithoutTlsWarning(settings);
      expect(warning, name).toMatchObject({ level: 'error', message: expect.stringContaining('TEMPORAL RUNS WITHOUT TLS') });
      if (name === 'api') expect(securityWarnings(settings, loadAuthConfig(environment))).toContainEqual(warning);
    }
  });

  it('every variable given to the API and the worker is a setting the code reads', () => {
    const known = settingNamesReadByCode();
    for (const name of SERVICE_PROCESSES) {
      for (const variable of Object.keys(environmentOf(name))) expect(known, `${name}: ${variable}`).toContain(variable);
    }
  });

  it('the API and the worker agree on the database, Temporal, its namespace and task queue, and the identity provider', () => {
    const [api, worker] = SERVICE_PROCESSES.map((name) => loadSettings(environmentOf(name)));
    for (const setting of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE'] as const) {
      expect(worker![setting], setting).toBe(api![setting]);
    }
    expect(api!.TEMPORAL_TASK_QUEUE).toBe(loadSettings({}).TEMPORAL_TASK_QUEUE);
    const [apiIdp, workerIdp] = SERVICE_PROCESSES.map((name) => loadKeycloakSettings(environmentOf(name)));
    expect({ ...workerIdp, clientSecret: workerIdp!.clientSecret.reveal() }).toEqual({ ...apiIdp, clientSecret: apiIdp!.clientSecret.reveal() });
  });

  it('the namespace the Temporal job creates is the one the API, the worker and the Web UI use', () => {
    const created = environmentOf('temporal-namespace').DEFAULT_NAMESPACE;
    for (const name of SERVICE_PROCESSES) expect(loadSettings(environmentOf(name)).TEMPORAL_NAMESPACE, name).toBe(created);
    expect(environmentOf('temporal-ui').TEMPORAL_DEFAULT_NAMESPACE ?? 'default').toBe(created);
    expect(namesOf('temporal')).toContain(environmentOf('temporal-ui').TEMPORAL_ADDRESS?.split(':')[0]);
  });

  it('the registry, Temporal and Keycloak use separate databases and roles, all created on first start', () => {
    const registry = new URL(environmentOf('migrate').DATABASE_MIGRATION_URL!);
    const temporal = environmentOf('temporal');
    const keycloak = environmentOf('keycloak');
    const databases = [registry.pathname.slice(1), temporal.DBNAME, temporal.VISIBILITY_DBNAME, keycloak.KC_DB_URL_DATABASE];
    const roles = [registry.username, temporal.POSTGRES_USER, keycloak.KC_DB_USERNAME];
    expect(new Set(databases).size, databases.join(', ')).toBe(4);
    expect(new Set(roles).size, roles.join(', ')).toBe(3);
    const init = bindMounts('postgres').find((mount) => mount.target.startsWith('/docker-entrypoint-initdb.d/'));
    expect(init).toBeDefined();
    const script = readFileSync(resolve(root, init!.source), 'utf8');
    for (const database of databases) expect(script, database).toMatch(new RegExp(`CREATE DATABASE ${database}\\b`, 'i'));
    for (const role of roles) expect(script, role).toMatch(new RegExp(`CREATE ROLE ${role}\\b`, 'i'));
  });

  it('holds no secret: every password and client secret is required from .env, and .env.example names each one', () => {
    const text = read('docker-compose.yml');
    const required = [...text.matchAll(/\$\{([A-Z_]+):\?[^}]*\}/g)].map((match) => match[1]!);
    for (const name of new Set(required)) expect(exampleEnv[name], name).toBeTruthy();
    for (const match of text.matchAll(/^\s*([A-Z_]*(PASSWORD|PWD|SECRET))\s*:\s*(.*)$/gm)) {
      expect(match[3], match[1]).toMatch(/^\$\{[A-Z_]+:\?/);
    }
    expect(() => interpolate(parse(text), {})).toThrow(/is required/);
  });

  it('the service runs as a runtime role of its own; the schema owner only migrates, and first start creates both', () => {
    const migration = environmentOf('migrate');
    const owner = new URL(migration.DATABASE_MIGRATION_URL!);
    const script = readFileSync(resolve(root, bindMounts('postgres').find((m) => m.target.startsWith('/docker-entrypoint-initdb.d/'))!.source), 'utf8');
    expect(script).toMatch(new RegExp(`CREATE DATABASE ${owner.pathname.slice(1)} OWNER ${owner.username};`));
    for (const name of SERVICE_PROCESSES) {
      const runtime = new URL(environmentOf(name).DATABASE_URL!);
      expect(runtime.username, name).not.toBe(owner.username);
      expect(runtime.pathname, name).toBe(owner.pathname);
      // The migration grants the role the API and the worker run as.
      expect(migration.DATABASE_URL, name).toBe(environmentOf(name).DATABASE_URL);
      expect(script).toMatch(new RegExp(`CREATE ROLE ${runtime.username} LOGIN\\b`));
    }
  });

  it("only the one-shot migrate service holds the schema owner's URL: it runs npm run migrate, and the API and the worker never see it", () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(service('migrate').command).toEqual(scripts.migrate!.split(' '));
    expect(service('migrate').build).toEqual(service('api').build);
    expect(service('migrate').restart ?? 'no').toMatch(/^(no|on-failure(:\d+)?)$/);
    expect(Object.fromEntries(dependenciesOf('migrate').map((d) => [d.target, d.condition]))).toEqual({ postgres: 'service_healthy' });
    const owner = environmentOf('migrate').DATABASE_MIGRATION_URL!;
    // PostgreSQL itself aside (its first start creates the role with that password), and the preflight, which only
    // compares each secret with the placeholder and exits before anything starts.
    for (const name of serviceNames.filter((other) => !['migrate', 'postgres', 'preflight'].includes(other))) {
      const environment = environmentOf(name);
      expect(environment.DATABASE_MIGRATION_URL, name).toBeUndefined();
      for (const [setting, value] of Object.entries(environment)) expect(value, `${name} ${setting}`).not.toContain(new URL(owner).password);
    }
  });

  it("Prometheus scrapes the API's and the worker's metrics ports, and traces go to the stack's Jaeger over OTLP/HTTP", () => {
    const config = parse(read('deploy/prometheus/prometheus.yml')) as { scrape_configs: { static_configs: { targets: string[] }[] }[] };
    const targets = config.scrape_configs.flatMap((job) => job.static_configs.flatMap((c) => c.targets));
    expect(targets).toEqual(expect.arrayContaining([`api:${environmentOf('api').METRICS_PORT}`, `worker:${environmentOf('worker').WORKER_METRICS_PORT}`]));
    expect(bindMounts('prometheus').some((m) => m.source.endsWith('deploy/prometheus/prometheus.yml'))).toBe(true);
    for (const name of SERVICE_PROCESSES) {
      const endpoint = new URL(environmentOf(name).OTEL_EXPORTER_OTLP_ENDPOINT!);
      expect(namesOf('jaeger'), name).toContain(endpoint.hostname);
      expect(endpoint.port, name).toBe('4318');
      expect(loadSettings(environmentOf(name)).METRICS_PORT, name).toBeGreaterThan(0);
    }
  });

  it('published host ports do not collide', () => {
    const seen = new Map<number, string>();
    for (const name of serviceNames) {
      for (const { host } of publishedPorts(name)) {
        expect(seen.get(host), `port ${host} of ${name}`).toBeUndefined();
        seen.set(host, name);
      }
    }
  });

  it('the API is published on the port it listens on and its healthcheck asks GET /readyz there', () => {
    const port = String(loadSettings(environmentOf('api')).PORT);
    expect(publishedPorts('api').map((p) => String(p.container))).toContain(port);
    expect(healthCheckCommand('api')).toContain(`127.0.0.1:${port}/readyz`);
  });

  it('files mounted from the repo exist; build outputs come from a project in the repo that names them', () => {
    for (const name of serviceNames) {
      for (const { source } of bindMounts(name)) {
        const path = resolve(root, source);
        if (!path.split('/').includes('target')) {
          expect(existsSync(path), `${name}: ${source}`).toBe(true);
          continue;
        }
        // A Maven build output: built before `docker compose up`, so only its project is in a fresh clone.
        const pom = join(dirname(path).replace(/\/target(\/.*)?$/, ''), 'pom.xml');
        expect(existsSync(pom), `${name}: ${pom}`).toBe(true);
        const finalName = readFileSync(pom, 'utf8').match(/<finalName>([^<]+)<\/finalName>/)?.[1];
        expect(`${finalName}.jar`, `${name}: ${source}`).toBe(basename(path));
      }
    }
  });

  it('Keycloak 26 runs in production mode (start --import-realm, its database in PostgreSQL) with the realm file and the extension jar mounted', () => {
    expect(service('keycloak').command).toEqual(['start', '--import-realm']);
    expect(environmentOf('keycloak')).toMatchObject({ KC_DB: 'postgres', KC_HOSTNAME_STRICT: 'true', KC_HTTP_ENABLED: 'true', KC_HEALTH_ENABLED: 'true' });
    expect(environmentOf('keycloak').KC_HOSTNAME).toMatch(/^https?:\/\//);
    // Forwarded headers are trusted only behind a proxy that sets them, and the stack has none.
    expect(environmentOf('keycloak').KC_PROXY_HEADERS).toBeUndefined();
    const mounts = Object.fromEntries(bindMounts('keycloak').map((m) => [m.target, m.source.replace(/^\.\//, '')]));
    expect(mounts['/opt/keycloak/data/import/realm-tenant-registry.json']).toBe(KEYCLOAK_REALM_FILE);
    const provider = Object.entries(mounts).find(([target]) => target.startsWith('/opt/keycloak/providers/'));
    expect(provider?.[1]).toMatch(/^keycloak\/extension\/target\/[\w.-]+\.jar$/);
  });

  it("Keycloak's production mode has what it requires: nothing turns development mode back on, a strict hostname, and plain HTTP only on the host's loopback unless TLS or a TLS proxy is there", () => {
    const keycloak = environmentOf('keycloak');
    // The image's entrypoint (kc.sh) runs the command: none of its own, no start-dev, no development database.
    expect(service('keycloak').entrypoint).toBeUndefined();
    expect([service('keycloak').command].flat().join(' ')).not.toMatch(/start-dev/);
    expect(keycloak.KC_DB).not.toMatch(/^dev-/);
    expect(keycloak.KC_HOSTNAME_STRICT ?? 'true').toBe('true');
    const hostname = new URL(keycloak.KC_HOSTNAME!);
    const ownTls = keycloak.KC_HTTPS_CERTIFICATE_FILE !== undefined && keycloak.KC_HTTPS_CERTIFICATE_KEY_FILE !== undefined;
    if (ownTls || keycloak.KC_PROXY_HEADERS !== undefined) {
      expect(hostname.protocol).toBe('https:');
    } else {
      // Production mode refuses plain HTTP unless it is switched on; switched on, only this host reaches it.
      expect(keycloak.KC_HTTP_ENABLED).toBe('true');
      expect(hostname.protocol).toBe('http:');
      expect(publishedPorts('keycloak').map((port) => port.hostIp)).toEqual(publishedPorts('keycloak').map(() => '127.0.0.1'));
      expect(publishedPorts('keycloak')).not.toEqual([]);
    }
    // The realm still asks for TLS from any address but a private one.
    expect((JSON.parse(read(KEYCLOAK_REALM_FILE)) as { sslRequired: string }).sslRequired).toMatch(/^(external|all)$/);
  });

  it('Keycloak\'s image is the version the extension is compiled against', () => {
    const compiledAgainst = read(KEYCLOAK_EXTENSION_POM).match(/<keycloak\.version>([^<]+)<\/keycloak\.version>/)?.[1];
    expect(service('keycloak').image).toBe(`quay.io/keycloak/keycloak:${compiledAgainst}`);
  });

  it('the realm file declares the realm and admin client the API uses, with the secret the API is given', () => {
    const realm = JSON.parse(read(KEYCLOAK_REALM_FILE)) as { realm: string; clients: Array<{ clientId: string; secret?: string }> };
    const api = environmentOf('api');
    expect(realm.realm).toBe(api.IDP_ADMIN_REALM);
    const client = realm.clients.find((c) => c.clientId === api.IDP_ADMIN_CLIENT_ID);
    expect(client, api.IDP_ADMIN_CLIENT_ID).toBeDefined();
    const placeholder = client!.secret?.match(/^\$\{([A-Z0-9_]+)\}$/)?.[1];
    const secret = placeholder ? environmentOf('keycloak')[placeholder] : client!.secret;
    expect(secret).toBe(api.IDP_ADMIN_CLIENT_SECRET);
  });

  it('every placeholder of the realm file without a default is given to Keycloak, and its e-mail goes to the SMTP catcher', () => {
    const realmText = read(KEYCLOAK_REALM_FILE);
    const keycloak = environmentOf('keycloak');
    // Upper-case names are environment placeholders; Keycloak's own default scopes carry ${camelCase} message keys.
    for (const [, name, fallback] of realmText.matchAll(/\$\{([A-Z0-9_.]+)(?::([^}]*))?\}/g)) {
      if (fallback === undefined) expect(keycloak[name!], name).toBeTruthy();
    }
    const smtp = (JSON.parse(realmText) as { smtpServer: { host: string; port: string } }).smtpServer;
    const resolvePlaceholder = (value: string) =>
      value.replace(/\$\{([A-Za-z0-9_.]+)(?::([^}]*))?\}/g, (_m, name: string, fallback?: string) => keycloak[name] ?? fallback ?? '');
    expect(namesOf('mailpit')).toContain(resolvePlaceholder(smtp.host));
    expect(resolvePlaceholder(smtp.port)).toBe('1025');
  });

  it('an invite continues into the demo app: the realm\'s public PKCE client, at the address the demo app is published on', () => {
    const realm = JSON.parse(read(KEYCLOAK_REALM_FILE)) as { clients: RealmClient[] };
    const api = environmentOf('api');
    const client = realm.clients.find((c) => c.clientId === api.IDP_INVITE_CLIENT_ID);
    expect(client, api.IDP_INVITE_CLIENT_ID).toMatchObject({ publicClient: true, standardFlowEnabled: true, attributes: { 'pkce.code.challenge.method': 'S256' } });
    const redirect = new URL(api.IDP_INVITE_REDIRECT_URI!);
    // Keycloak matches a loopback redirect URI registered without a port against any port (RFC 8252).
    expect(client!.redirectUris).toContain(`${redirect.protocol}//${redirect.hostname}/*`);
    expect(publishedPorts('demo-app')).toContainEqual({ hostIp: redirect.hostname, host: Number(redirect.port), container: Number(environmentOf('demo-app').DEMO_APP_PORT) });
    expect(environmentOf('demo-app').KEYCLOAK_REALM_URL).toBe(api.AUTH_ISSUER);
  });

  it('the demo client\'s claims mapper calls the API inside the network, as a client whose tokens the API accepts', () => {
    const realm = JSON.parse(read(KEYCLOAK_REALM_FILE)) as { clients: RealmClient[] };
    const keycloak = environmentOf('keycloak');
    const api = environmentOf('api');
    const demo = realm.clients.find((c) => c.clientId === api.IDP_INVITE_CLIENT_ID)!;
    const mapper = demo.protocolMappers?.find((m) => m.protocolMapper === 'tenant-registry-claims');
    expect(mapper).toBeDefined();
    const registryUrl = new URL(mapper!.config['registry.url']!.replace(/\$\{([A-Za-z0-9_.]+)(?::([^}]*))?\}/g, (_m, name: string, fallback?: string) => keycloak[name] ?? fallback ?? ''));
    expect(namesOf('api')).toContain(registryUrl.hostname);
    expect(registryUrl.port).toBe(String(loadSettings(api).PORT));
    const service = realm.clients.find((c) => c.clientId === mapper!.config['client.id']);
    expect(service).toMatchObject({ publicClient: false, serviceAccountsEnabled: true });
    expect(service!.protocolMappers?.find((m) => m.protocolMapper === 'oidc-audience-mapper')?.config['included.custom.audience']).toBe(api.AUTH_AUDIENCE);
  });

  it('Keycloak has one public URL: its hostname, the issuer AUTH_ISSUER names, and a name browsers and containers both reach', () => {
    const keycloak = environmentOf('keycloak');
    const publicUrl = new URL(keycloak.KC_HOSTNAME!);
    const api = environmentOf('api');
    expect(api.AUTH_ISSUER).toBe(`${publicUrl.origin}/realms/${api.IDP_ADMIN_REALM}`);
    // Inside the network the name is an alias of the service; on the host *.localhost is the loopback address.
    expect(namesOf('keycloak')).toContain(publicUrl.hostname);
    expect(publicUrl.hostname).toMatch(/(^|\.)localhost$/);
    expect(publicUrl.port).toBe(keycloak.KC_HTTP_PORT);
    expect(publishedPorts('keycloak')).toContainEqual(expect.objectContaining({ host: Number(publicUrl.port), container: Number(publicUrl.port) }));
  });
});
