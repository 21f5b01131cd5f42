import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../platform/config.ts';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('loadSettings', () => {
  it('refuses to start on a placeholder in any secret setting, naming each setting and never its value', () => {
    const env = {
      DATABASE_URL: 'postgres://registry_app:change-me-registry-runtime@db:5432/tenant_registry',
      DATABASE_MIGRATION_URL: 'postgres://registry:Change_Me@db:5432/tenant_registry',
      TEMPORAL_PAYLOAD_KEYS: 'k1:REPLACE-WITH-BASE64-OF-32-RANDOM-BYTES',
      REGISTRY_SECRET_KEYS: `${key('s2')},s1:replace_with_a_key`,
      IDP_ADMIN_CLIENT_SECRET: 'changeme',
    };
    let message = '';
    try {
      loadSettings(env);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^invalid configuration: DATABASE_URL, DATABASE_MIGRATION_URL, TEMPORAL_PAYLOAD_KEYS, REGISTRY_SECRET_KEYS, IDP_ADMIN_CLIENT_SECRET still hold a placeholder/);
    expect(message).not.toMatch(/registry_app|REPLACE-WITH-BASE64|Change_Me|replace_with_a_key/);
    for (const [name, value] of Object.entries(env)) expect(() => loadSettings({ [name]: value }), name).toThrow(new RegExp(`: ${name} still hold`));
  });

  it('accepts secrets of their own, and a placeholder word in a setting that holds no secret', () => {
    const settings = loadSettings({
      DATABASE_URL: `postgres://registry_app:${randomBytes(18).toString('base64url')}@db:5432/tenant_registry`,
      TEMPORAL_PAYLOAD_KEYS: key('k1'),
      IDP_ADMIN_CLIENT_SECRET: randomBytes(18).toString('hex'),
      OTEL_SERVICE_NAME: 'change-me-later',
    });
    expect(settings.TEMPORAL_PAYLOAD_KEYS).toMatch(/^k1:/);
  });

  it('requires PUBLIC_BASE_URL with AUTH_ENABLED=true, naming it, and takes only an absolute http(s) URL without query or fragment', () => {
    for (const on of ['true', '1', 'TRUE']) expect(() => loadSettings({ AUTH_ENABLED: on }), on).toThrow(/PUBLIC_BASE_URL is required with AUTH_ENABLED=true/);
    expect(() => loadSettings({ AUTH_ENABLED: 'true', PUBLIC_BASE_URL: ' ' })).toThrow(/PUBLIC_BASE_URL is required/);
    expect(loadSettings({ AUTH_ENABLED: 'true', PUBLIC_BASE_URL: 'https://registry.example.com/' }).PUBLIC_BASE_URL).toBe('https://registry.example.com');
    expect(loadSettings({ AUTH_ENABLED: 'false' }).PUBLIC_BASE_URL).toBeUndefined();
    for (const bad of ['registry.example.com', 'ftp://registry.example.com', 'https://registry.example.com/?x=1', 'https://registry.example.com/#top']) {
      expect(() => loadSettings({ PUBLIC_BASE_URL: bad }), bad).toThrow(/PUBLIC_BASE_URL: must be an absolute http\(s\) URL/);
    }
  });

  it('serves the codec endpoint without authentication only when CODEC_ENDPOINT_ENABLED says so', () => {
    expect(loadSettings({}).CODEC_ENDPOINT_ENABLED).toBe(false);
    expect(loadSettings({ CODEC_ENDPOINT_ENABLED: 'true' }).CODEC_ENDPOINT_ENABLED).toBe(true);
    expect(() => loadSettings({ CODEC_ENDPOINT_ENABLED: 'yes' })).toThrow(/CODEC_ENDPOINT_ENABLED/);
  });
});
