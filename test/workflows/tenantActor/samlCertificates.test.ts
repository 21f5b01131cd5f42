import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createTenantActorActivities } from '../../../activities/tenantActor/tenantActorActivities.ts';
import { samlMetadataReaderOf } from '../../../activities/tenantActor/samlMetadataReaderOf.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { createSsoConnection } from '../../../domain/sso/createSsoConnection.ts';
import type { SsoConnectionCreate } from '../../../domain/schemas/ssoConnections.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { temporalTestServerPath } from '../../../platform/temporalTestServer.ts';
import { openOrm, type Orm } from '../../../store/orm.ts';
import { postgresStores } from '../../../store/postgresStores.ts';
import type { RegistryContext } from '../../../domain/registryContext.ts';
import { tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { testSecretBox } from '../../support/testSecretBox.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { RecordingChangeEffects } from '../../support/fakes/recordingChangeEffects.ts';
import { tenantLimitsOf } from '../../../api/tenantLimitsOf.ts';
import { loadSettings } from '../../../platform/config.ts';
import { idpMetadataXml, selfSignedCertificate, startMetadataServer, type MetadataServer, type TestCertificate } from '../../support/samlIdentityProviderMetadata.ts';

/**
 * A SAML connection's life on the tenant actor's durable timeline, on Temporal's time-skipping test server against the
 * run's PostgreSQL, the simulated provider and a loopback metadata URL (SPEC-EXTENSIONS §14): its certificates'
 * expiry notices, and its metadata read again every SSO_METADATA_REFRESH_HOURS. The worker keeps no workflow in its
 * cache, so every task replays the actor's history: a notice appended once is appended once across replays.
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const taskQueue = `saml-${randomUUID()}`;
const settings = { ...loadSettings({}), SSO_ISSUER_ALLOWED_HOSTS: ['127.0.0.1'], SSO_METADATA_TIMEOUT_MS: 2_000 };
let env: TestWorkflowEnvironment;
let orm: Orm;
let stores: ReturnType<typeof postgresStores>;
let registry: RegistryContext;
let metadataServer: MetadataServer;
let worker: Worker;
let running: Promise<void>;

async function startWorker() {
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: createTenantActorActivities({ stores, idp: new SimulatedIdentityProvider(orm, 'http://127.0.0.1:9'), samlMetadata: registry.samlMetadata, metadataRefreshHours: 24 }),
    // No sticky queues (see tenantLifecycle.test.ts): every task replays the history, and a restarted worker gets its tasks.
    maxCachedWorkflows: 0,
  });
  running = worker.run();
}

async function stopWorker() {
  worker.shutdown();
  await running;
}

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: await temporalTestServerPath() } } });
  orm = await openOrm(inject('databaseUrl'), 5);
  stores = postgresStores(orm, testSecretBox());
  registry = { stores, effects: new RecordingChangeEffects(), tenantLimits: tenantLimitsOf(settings), samlMetadata: samlMetadataReaderOf(settings) };
  metadataServer = await startMetadataServer({ status: 404 });
  await startWorker();
}, 120_000);
afterAll(async () => {
  await stopWorker();
  await env?.teardown();
  await orm?.close();
  await metadataServer?.close();
});

const sql = <T = Record<string, any>>(text: string, values: unknown[]) => orm.em.fork().execute<T[]>(text, values);

/** A tenant with one SAML connection made of `body`, read as of the test server's now, and its actor started. */
async function tenantWithConnection(body: SsoConnectionCreate) {
  const { tenant } = await createTenant(registry, { slug: uniqueSlug('samlwf'), name: 'SAML timers', kind: 'customer', plan: 'starter' }, {});
  const connection = await createSsoConnection(registry, tenant.id, body, {});
  // The connection's clock and the skipped clock must agree: its metadata counts as read at the server's now.
  await sql('update sso_connections set metadata_refreshed_at = ? where id = ?', [new Date(await env.currentTimeMs()), connection.id]);
  await env.client.workflow.start('tenantActorWorkflow', {
    workflowId: tenantActorWorkflowId(tenant.id),
    taskQueue,
    args: [{ tenantId: tenant.id, retry: { initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 400, maximumAttempts: 2 } }],
  });
  return { tenantId: tenant.id, connection };
}

/** Skips the test server's clock to `at` (ms since the epoch), when that is still ahead. */
async function skipUntil(at: number) {
  await env.sleep(Math.max(1, at - (await env.currentTimeMs())));
}

/** The notices appended for a certificate, as `days_before` (0 for sso.certificate_expired), in order. */
const noticesOf = async (tenantId: string, certificate: TestCertificate) =>
  (
    await sql<{ action: string; days_before: number | null }>(
      `select action, (metadata->>'days_before')::int as days_before from audit_events
        where tenant_id = ? and action like 'sso.certificate_%' and metadata->>'fingerprint_sha256' = ? order by id`,
      [tenantId, certificate.fingerprintSha256],
    )
  ).map((e) => (e.action === 'sso.certificate_expired' ? 0 : e.days_before));
const countOf = async (tenantId: string, action: string) => Number((await sql<{ n: number }>('select count(*)::int as n from audit_events where tenant_id = ? and action = ?', [tenantId, action]))[0]!.n);
const connectionRow = async (id: string) => (await sql('select saml, metadata_refresh_error from sso_connections where id = ?', [id]))[0]!;
const fingerprintsOf = async (id: string) => ((await connectionRow(id)).saml.certificates as { fingerprintSha256: string }[]).map((c) => c.fingerprintSha256);
const providerFingerprints = async (alias: string) =>
  ((await sql('select config from idp_sim_identity_providers where alias = ?', [alias]))[0]?.config.certificates as { fingerprintSha256: string }[] | undefined)?.map((c) => c.fingerprintSha256);

describe("a SAML connection's certificates on the tenant actor's timeline", () => {
  it('are announced 30, 7 and 1 days before not_after and at it, each once across replays and a worker restart; one first seen inside a window gets that notice at once', async () => {
    const lasting = selfSignedCertificate(60, 'lasting');
    const soon = selfSignedCertificate(5, 'soon');
    const { tenantId } = await tenantWithConnection({ protocol: 'saml', metadata_xml: idpMetadataXml({ signing: [lasting, soon] }) });
    await eventually(async () => (await noticesOf(tenantId, soon)).length === 1, 15_000, "the 7-day notice of the certificate seen inside its window");
    expect(await noticesOf(tenantId, soon)).toEqual([7]);
    expect(await noticesOf(tenantId, lasting)).toEqual([]);
    await skipUntil(lasting.notAfter.getTime() - 30 * DAY - HOUR);
    expect(await noticesOf(tenantId, lasting)).toEqual([]);
    await skipUntil(lasting.notAfter.getTime() - 30 * DAY + HOUR);
    await eventually(async () => (await noticesOf(tenantId, lasting)).length === 1, 15_000, 'the 30-day notice');
    // The soon one expired long before: its 1-day notice and its expiry came on their own timers.
    await eventually(async () => (await noticesOf(tenantId, soon)).length === 3, 15_000, "the soon certificate's later notices");
    expect(await noticesOf(tenantId, soon)).toEqual([7, 1, 0]);
    await stopWorker();
    await startWorker();
    for (const [daysBefore, seen] of [[7, [30, 7]], [1, [30, 7, 1]], [0, [30, 7, 1, 0]]] as const) {
      await skipUntil(lasting.notAfter.getTime() - daysBefore * DAY + HOUR);
      await eventually(async () => (await noticesOf(tenantId, lasting)).length === seen.length, 15_000, `the notice ${daysBefore} days before`);
    }
    await skipUntil(lasting.notAfter.getTime() + 10 * DAY);
    expect(await noticesOf(tenantId, lasting)).toEqual([30, 7, 1, 0]);
    expect(await noticesOf(tenantId, soon)).toEqual([7, 1, 0]);
  }, 120_000);
});

describe("a SAML connection's metadata URL on the tenant actor's timeline", () => {
  it('is read again every 24 hours: a new certificate is taken in beside the old at once, a removed one dropped; a failed reading keeps what it had, audited once per streak', async () => {
    const [a, b] = [selfSignedCertificate(400, 'a'), selfSignedCertificate(400, 'b')];
    metadataServer.serve({ xml: idpMetadataXml({ signing: [a] }) });
    const { tenantId, connection } = await tenantWithConnection({ protocol: 'saml', metadata_url: metadataServer.url });
    const start = await env.currentTimeMs();

    metadataServer.serve({ xml: idpMetadataXml({ signing: [a, b] }) });
    await skipUntil(start + 23 * HOUR);
    expect(await fingerprintsOf(connection.id)).toEqual([a.fingerprintSha256]);
    await skipUntil(start + 24 * HOUR + 60_000);
    await eventually(async () => (await fingerprintsOf(connection.id)).length === 2, 15_000, 'the new certificate beside the old');
    await eventually(async () => (await providerFingerprints(connection.idpAlias))?.length === 2, 15_000, 'both in the identity provider');
    const [changed] = await sql('select actor_type, metadata from audit_events where tenant_id = ? and action = ?', [tenantId, 'sso.connection_changed']);
    expect(changed).toMatchObject({ actor_type: 'system', metadata: { changes: { certificates: { added: [b.fingerprintSha256], removed: [] } } } });

    metadataServer.serve({ xml: idpMetadataXml({ signing: [b] }) });
    await skipUntil(start + 48 * HOUR + 120_000);
    await eventually(async () => (await providerFingerprints(connection.idpAlias))?.join() === b.fingerprintSha256, 15_000, 'the old certificate dropped');
    expect(await fingerprintsOf(connection.id)).toEqual([b.fingerprintSha256]);

    metadataServer.serve({ status: 503 });
    await skipUntil(start + 72 * HOUR + 180_000);
    await eventually(async () => (await connectionRow(connection.id)).metadata_refresh_error?.includes('HTTP 503'), 15_000, 'the failure recorded');
    expect(await countOf(tenantId, 'sso.metadata_refresh_failed')).toBe(1);
    const requests = metadataServer.requests;
    await skipUntil(start + 73 * HOUR + 240_000);
    await eventually(async () => metadataServer.requests > requests, 15_000, 'the reading tried again within the hour');
    expect(await countOf(tenantId, 'sso.metadata_refresh_failed')).toBe(1);
    expect(await fingerprintsOf(connection.id)).toEqual([b.fingerprintSha256]);
    expect(await providerFingerprints(connection.idpAlias)).toEqual([b.fingerprintSha256]);

    metadataServer.serve({ xml: idpMetadataXml({ signing: [b] }) });
    await skipUntil(start + 74 * HOUR + 300_000);
    await eventually(async () => (await connectionRow(connection.id)).metadata_refresh_error === null, 15_000, 'the failure cleared by a reading');
    expect(await countOf(tenantId, 'sso.connection_changed')).toBe(2);
  }, 120_000);
});
