import { describe, expect, it } from 'vitest';
import { checkScimPatchPaths } from '../../../domain/directories/scimPatchPaths.ts';
import { SCIM_GROUP_SCHEMA, SCIM_USER_SCHEMA } from '../../../domain/directories/scimDiscovery.ts';

const refusal = (operations: unknown[], schema = SCIM_USER_SCHEMA) => {
  try {
    checkScimPatchPaths(operations, schema);
    return undefined;
  } catch (error) {
    return (error as { scimType?: string }).scimType;
  }
};

describe('checkScimPatchPaths: a PATCH names only attributes of the schema, never a prototype', () => {
  it('the forms Okta and Entra send pass', () => {
    expect(refusal([{ op: 'replace', path: 'active', value: false }])).toBeUndefined();
    expect(refusal([{ op: 'replace', path: 'name.givenName', value: 'A' }])).toBeUndefined();
    expect(refusal([{ op: 'replace', path: 'emails[type eq "work"].value', value: 'a@b.example' }])).toBeUndefined();
    expect(refusal([{ op: 'replace', path: `${SCIM_USER_SCHEMA}:userName`, value: 'a' }])).toBeUndefined();
    expect(refusal([{ op: 'replace', value: { active: false, displayName: 'A', 'name.familyName': 'B' } }])).toBeUndefined();
    expect(refusal([{ op: 'remove', path: 'members[value eq "00000000-0000-4000-8000-000000000001"]' }], SCIM_GROUP_SCHEMA)).toBeUndefined();
  });

  it("every resource's common attributes (RFC 7643 §3.1) pass: Okta's rename of a group carries its id", () => {
    expect(refusal([{ op: 'replace', value: { id: '00000000-0000-4000-8000-000000000001', displayName: 'Renamed' } }], SCIM_GROUP_SCHEMA)).toBeUndefined();
    expect(refusal([{ op: 'replace', path: 'externalId', value: 'x' }], SCIM_GROUP_SCHEMA)).toBeUndefined();
    expect(refusal([{ op: 'replace', path: 'meta.nope', value: 'x' }])).toBe('invalidPath');
  });

  it.each(['__proto__.roles', 'toString.x', 'constructor.prototype.x', 'prototype.x', 'name.__proto__', 'emails[constructor eq "x"].value', 'nickName', 'name.nope', `${SCIM_GROUP_SCHEMA}:displayName`])('%s is invalidPath', (path) => {
    expect(refusal([{ op: 'add', path, value: 'x' }])).toBe('invalidPath');
  });

  it('a value with a prototype key at any depth, or a value without path naming no attribute, is invalidPath', () => {
    expect(refusal([JSON.parse('{"op":"replace","value":{"__proto__":{"roles":["IT_ADMIN"]}}}')])).toBe('invalidPath');
    expect(refusal([{ op: 'replace', value: { name: { constructor: { prototype: { x: 1 } } } } }])).toBe('invalidPath');
    expect(refusal([{ op: 'replace', value: { 'constructor.prototype.roles': ['IT_ADMIN'] } }])).toBe('invalidPath');
    expect(refusal([{ op: 'replace', value: { roles: ['IT_ADMIN'] } }])).toBe('invalidPath');
  });
});
