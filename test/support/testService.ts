import { inject } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppContext, AppDependencies } from '../../api/appDependencies.ts';
import { listen, listenerOf } from '../../platform/httpServer.ts';
import { requestAdmissionOf } from '../../api/requestAdmissionOf.ts';
import { runChecks, storeCheck } from '../../api/readinessChecks.ts';
import { loadSettings, type Settings } from '../../platform/config.ts';
import { createLogger } from '../../platform/logger.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { testPayloadCodec } from './testTemporalAccess.ts';
import { testSecretBox } from './testSecretBox.ts';

export interface TestService {
  baseUrl: string;
  orm: Orm;
  /** What the app's handlers run on; a test may complete it (e.g. with the identity provider) after start. */
  deps: AppContext;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * The real service on a loopback port against the run's PostgreSQL (or `database`, a test file's own, migrated);
 * callers speak HTTP to it.
 */
export async function startTestService(
  overrides: Partial<Settings> = {},
  extra: Partial<AppDependencies> = {},
  database: { ownerUrl: string; runtimeUrl: string } = { ownerUrl: inject('databaseUrl'), runtimeUrl: inject('runtimeDatabaseUrl') },
): Promise<TestService> {
  const settings = { ...loadSettings({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' }), ...overrides };
  const log = createLogger(settings.LOG_LEVEL, 'test');
  // The app runs as the runtime role, as deployed; the test's own queries run as the schema's owner.
  const orm = await openOrm(database.ownerUrl, 2);
  const appOrm = await openOrm(database.runtimeUrl, 5);
  const given: AppDependencies = {
    settings,
    authConfig: { enabled: false },
    orm: appOrm,
    log,
    readiness: () => runChecks({ store: storeCheck(appOrm) }, 2000),
    payloadCodec: testPayloadCodec(),
    secretBox: testSecretBox(),
    ...extra,
  };
  const { app, refusal, context: deps } = createApp(given);
  const admission = requestAdmissionOf(settings);
  const http = await listen(admission.listenerFor(listenerOf(app.callback()), listenerOf(refusal.callback())), 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${http.port}`;
  return {
    baseUrl,
    orm,
    deps,
    async request(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(baseUrl + path, init);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // non-JSON bodies are returned as text so a test can assert on them
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async close() {
      await http.close(1000);
      await deps.signInAudit.close();
      await appOrm.close();
      await orm.close();
    },
  };
}

let counter = 0;
/** A slug no other test in this run uses. */
export const uniqueSlug = (stem = 't') => `${stem}-${process.pid}-${Date.now().toString(36)}-${(counter++).toString(36)}`.slice(0, 40).replace(/-$/, 'x');
