import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orgRolesFrom, tenantLookupFor } from '../../../domain/claims/claimsLookup.ts';
import { AppError } from '../../../domain/errors.ts';

const ID_A = randomUUID();
const ID_B = randomUUID();

function invalidInputOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_input');
    return error as AppError;
  }
  throw new Error('expected an invalid_input error');
}

describe('tenantLookupFor', () => {
  it('body.tenant_id wins over every other key', () => {
    expect(
      tenantLookupFor({ tenant_id: ID_A, tenant_slug: 'slug-b', user_attrs: { tenant_id: ID_B, tenant_slug: 'slug-c' } }),
    ).toEqual({ by: 'id', id: ID_A });
  });

  it('body.tenant_slug wins over user_attrs when there is no body.tenant_id', () => {
    expect(tenantLookupFor({ tenant_slug: 'slug-b', user_attrs: { tenant_id: ID_B, tenant_slug: 'slug-c' } })).toEqual({
      by: 'slug',
      slug: 'slug-b',
    });
  });

  it('user_attrs.tenant_id wins over user_attrs.tenant_slug', () => {
    expect(tenantLookupFor({ user_attrs: { tenant_id: ID_B, tenant_slug: 'slug-c' } })).toEqual({ by: 'id', id: ID_B });
  });

  it('user_attrs.tenant_slug is used when it is the only key', () => {
    expect(tenantLookupFor({ user_attrs: { tenant_slug: 'slug-c', other: 'x' } })).toEqual({ by: 'slug', slug: 'slug-c' });
  });

  it('ids are normalised to lower case', () => {
    expect(tenantLookupFor({ tenant_id: ID_A.toUpperCase() })).toEqual({ by: 'id', id: ID_A });
    expect(tenantLookupFor({ user_attrs: { tenant_id: ID_B.toUpperCase() } })).toEqual({ by: 'id', id: ID_B });
  });

  it('a malformed user_attrs.tenant_id is an input error, not a fall-through to user_attrs.tenant_slug', () => {
    const error = invalidInputOf(() => tenantLookupFor({ user_attrs: { tenant_id: 'not-a-uuid', tenant_slug: 'slug-c' } }));
    expect(error.message).toMatch(/tenant_id/);
  });

  it('a malformed user_attrs.tenant_slug is an input error', () => {
    invalidInputOf(() => tenantLookupFor({ user_attrs: { tenant_slug: 'Not A Slug' } }));
  });

  it('no lookup key at all is an input error', () => {
    invalidInputOf(() => tenantLookupFor({}));
    invalidInputOf(() => tenantLookupFor({ user_attrs: { org_roles: 'IT_ADMIN' } }));
  });
});

describe('orgRolesFrom', () => {
  it('splits the comma-separated user attribute, trims and de-duplicates', () => {
    expect(orgRolesFrom({ user_attrs: { org_roles: ' IT_ADMIN, BILLING ,IT_ADMIN,,' } })).toEqual(['IT_ADMIN', 'BILLING']);
  });

  it('is empty without the attribute', () => {
    expect(orgRolesFrom({ tenant_id: ID_A })).toEqual([]);
  });
});
