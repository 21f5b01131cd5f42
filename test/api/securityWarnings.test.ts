import { describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../api/auth/authConfig.ts';
import { securityWarnings } from '../../api/securityWarnings.ts';
import { loadSettings } from '../../platform/config.ts';

const ISSUER = 'https://issuer.example/realms/r';

describe('securityWarnings', () => {
  it('warns loudly when authentication is off, and at error level when the API listens beyond loopback', () => {
    const local = securityWarnings(loadSettings({}), { enabled: false });
    expect(local[0]).toMatchObject({ level: 'warn', message: expect.stringContaining('AUTHENTICATION IS OFF') });
    const exposed = securityWarnings(loadSettings({ HOST: '0.0.0.0' }), { enabled: false });
    expect(exposed[0]).toMatchObject({ level: 'error', message: expect.stringContaining('0.0.0.0') });
    expect(exposed.some((w) => w.message.includes('RATE_LIMIT'))).toBe(true);
  });

  it('says nothing about authentication when it is on with scopes, and warns when scopes are off', () => {
    expect(securityWarnings(loadSettings({}), loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER }))).toEqual([]);
    const lenient = securityWarnings(loadSettings({}), loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER, AUTH_REQUIRE_SCOPES: 'false' }));
    expect(lenient).toEqual([{ level: 'warn', message: expect.stringContaining('AUTH_REQUIRE_SCOPES=false') }]);
  });

  it('warns loudly when the codec endpoint is opened without authentication, at error level beyond loopback', () => {
    expect(securityWarnings(loadSettings({}), { enabled: false }).some((w) => w.message.includes('CODEC ENDPOINT'))).toBe(false);
    const local = securityWarnings(loadSettings({ CODEC_ENDPOINT_ENABLED: 'true' }), { enabled: false });
    expect(local).toContainEqual({ level: 'warn', message: expect.stringContaining('THE CODEC ENDPOINT IS OPEN WITHOUT AUTHENTICATION') });
    const exposed = securityWarnings(loadSettings({ CODEC_ENDPOINT_ENABLED: 'true', HOST: '0.0.0.0' }), { enabled: false });
    expect(exposed).toContainEqual({ level: 'error', message: expect.stringContaining('decrypt Temporal payloads') });
    // With authentication the setting changes nothing: the endpoint is registry:admin's.
    const authed = securityWarnings(loadSettings({ CODEC_ENDPOINT_ENABLED: 'true' }), loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER }));
    expect(authed).toEqual([]);
  });

  it('says Temporal runs without TLS when TEMPORAL_ADDRESS names one without TEMPORAL_TLS*, at error level across a network', () => {
    const auth = loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER });
    const remote = securityWarnings(loadSettings({ TEMPORAL_ADDRESS: 'temporal:7233' }), auth);
    expect(remote).toEqual([{ level: 'error', message: expect.stringContaining('TEMPORAL RUNS WITHOUT TLS (TEMPORAL_ADDRESS=temporal:7233') }]);
    expect(securityWarnings(loadSettings({ TEMPORAL_ADDRESS: '127.0.0.1:7233' }), auth)).toEqual([{ level: 'warn', message: expect.stringContaining('WITHOUT TLS') }]);
    expect(securityWarnings(loadSettings({ TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_TLS: 'true' }), auth)).toEqual([]);
    // The embedded development server, on loopback and started by the service itself.
    expect(securityWarnings(loadSettings({}), auth)).toEqual([]);
  });

  it('listens on loopback unless HOST says otherwise', () => {
    expect(loadSettings({}).HOST).toBe('127.0.0.1');
  });
});
