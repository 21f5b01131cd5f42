import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretsHoldingPlaceholders } from '../../platform/placeholderSecrets.ts';

/** .env.example as compose reads it: NAME=value lines. */
const example = Object.fromEntries(
  readFileSync(resolve(import.meta.dirname, '../../.env.example'), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z0-9_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

describe('secretsHoldingPlaceholders', () => {
  it('names every secret .env.example ships as a placeholder, Keycloak client secrets and passwords included', () => {
    const named = secretsHoldingPlaceholders(example);
    expect(named).toEqual(expect.arrayContaining(['TENANT_REGISTRY_CALLER_CLIENT_SECRET', 'KEYCLOAK_ADMIN_PASSWORD', 'POSTGRES_PASSWORD', 'REGISTRY_SECRET_KEYS']));
    const placeholders = Object.entries(example).filter(([, value]) => /change-me|replace-with/i.test(value)).map(([name]) => name);
    expect(named.sort()).toEqual(placeholders.sort());
  });

  it('passes secrets of your own and leaves settings that are not secrets alone', () => {
    expect(secretsHoldingPlaceholders({ POSTGRES_PASSWORD: 'k8Jq2x', IDP_ADMIN_CLIENT_SECRET: 'f00d', PUBLIC_BASE_URL: 'https://change-me.example' })).toEqual([]);
  });
});
