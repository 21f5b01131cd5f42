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

  it('listens on loopback unless HOST says otherwise', () => {
    expect(loadSettings({}).HOST).toBe('127.0.0.1');
  });
});
