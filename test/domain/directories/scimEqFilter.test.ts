import { parse } from 'scim2-parse-filter';
import { describe, expect, it } from 'vitest';
import { scimEqFilter } from '../../../domain/directories/scimEqFilter.ts';

const ATTRIBUTES = ['userName', 'externalId'] as const;

/** What the library's parser alone makes of a filter, as scimEqFilter answers it. */
function byParser(filter: string): { attribute: string; value: string } | 'refused' {
  try {
    const parsed = parse(filter) as unknown as { op?: string; attrPath?: string; compValue?: unknown };
    const attribute = ATTRIBUTES.find((name) => name === parsed.attrPath);
    return parsed.op === 'eq' && attribute && typeof parsed.compValue === 'string' ? { attribute, value: parsed.compValue } : 'refused';
  } catch {
    return 'refused';
  }
}

const answer = (filter: string) => {
  try {
    return scimEqFilter(filter, ATTRIBUTES) ?? 'none';
  } catch {
    return 'refused';
  }
};

describe('scimEqFilter', () => {
  it('answers every filter as the library parser does, the simple shape it reads itself included', () => {
    const filters = [
      'userName eq "ada@example.com"',
      '  userName   EQ   "ada@example.com"  ',
      'externalId eq "00u1ab2c3"',
      'userName eq "quote \\" and backslash \\\\ and \\u00e9"',
      'userName eq ""',
      'username eq "ada@example.com"',
      'userName eq "unterminated',
      'userName eq ada',
      'userName ne "ada"',
      'userName co "ada"',
      'userName eq "a" and externalId eq "b"',
      'emails[type eq "work"]',
      'name.familyName eq "Lovelace"',
      'userName eq "line\nbreak"',
      'userName eq "bad escape \\x"',
    ];
    for (const filter of filters) expect(answer(filter), filter).toEqual(byParser(filter));
  });

  it('answers no filter for an absent or blank one', () => {
    expect(scimEqFilter(undefined, ATTRIBUTES)).toBeUndefined();
    expect(scimEqFilter('  ', ATTRIBUTES)).toBeUndefined();
  });
});
