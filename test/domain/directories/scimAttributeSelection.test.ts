import { describe, expect, it } from 'vitest';
import { attributeList, selectScimAttributes } from '../../../domain/directories/scimAttributeSelection.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const resource = {
  schemas: [USER],
  id: 'u1',
  userName: 'ada@example.com',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: 'ada@example.com', type: 'work', primary: true }, { value: 'a@home.example', type: 'home' }],
  meta: { resourceType: 'User' },
};

describe('selectScimAttributes', () => {
  it('answers the whole resource when neither list is asked', () => {
    expect(selectScimAttributes(resource, USER, {})).toBe(resource);
  });

  it('keeps only the attributes asked, case-insensitively and with or without the URN, beside id and schemas', () => {
    expect(selectScimAttributes(resource, USER, { attributes: ['USERNAME', `${USER}:meta`] })).toEqual({ schemas: [USER], id: 'u1', userName: 'ada@example.com', meta: { resourceType: 'User' } });
  });

  it('keeps a sub-attribute asked of a complex attribute, and of each value of a multi-valued one', () => {
    expect(selectScimAttributes(resource, USER, { attributes: ['name.familyName', 'emails.value'] })).toEqual({
      schemas: [USER],
      id: 'u1',
      name: { familyName: 'Lovelace' },
      emails: [{ value: 'ada@example.com' }, { value: 'a@home.example' }],
    });
  });

  it('asking the whole attribute and one of its sub-attributes answers the whole attribute', () => {
    expect(selectScimAttributes(resource, USER, { attributes: ['name.givenName', 'name'] }).name).toEqual(resource.name);
  });

  it('drops the excluded attributes and sub-attributes but never id or schemas', () => {
    expect(selectScimAttributes(resource, USER, { excludedAttributes: ['emails.type', 'name', 'id', 'schemas', 'meta'] })).toEqual({
      schemas: [USER],
      id: 'u1',
      userName: 'ada@example.com',
      emails: [{ value: 'ada@example.com', primary: true }, { value: 'a@home.example' }],
    });
  });
});

describe('attributeList', () => {
  it('reads a comma-separated list, spaces and empty names dropped', () => {
    expect(attributeList(' userName, name.givenName ,,')).toEqual(['userName', 'name.givenName']);
    expect(attributeList(undefined)).toBeUndefined();
  });
});
