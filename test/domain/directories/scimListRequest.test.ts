import { describe, expect, it } from 'vitest';
import { scimListRequestOfQuery, scimSearchRequest, SCIM_SEARCH_REQUEST_SCHEMA } from '../../../domain/directories/scimListRequest.ts';
import { ScimError } from '../../../domain/directories/scimError.ts';

describe('scimListRequestOfQuery', () => {
  it('pages from 1 by at most 200, and reads the attribute lists comma-separated', () => {
    expect(scimListRequestOfQuery({})).toEqual({ startIndex: 1, count: 200 });
    expect(scimListRequestOfQuery({ startIndex: 0, count: 5000, attributes: 'userName,active' })).toEqual({ startIndex: 1, count: 200, attributes: ['userName', 'active'] });
  });

  it('refuses attributes and excludedAttributes asked together (invalidSyntax)', () => {
    expect(() => scimListRequestOfQuery({ attributes: 'userName', excludedAttributes: 'emails' })).toThrow(ScimError);
  });
});

describe('scimSearchRequest', () => {
  it("reads a SearchRequest body as a GET's query", () => {
    expect(scimSearchRequest({ schemas: [SCIM_SEARCH_REQUEST_SCHEMA], filter: 'userName eq "a"', startIndex: 3, count: 2, excludedAttributes: ['emails'] })).toEqual({
      startIndex: 3,
      count: 2,
      filter: 'userName eq "a"',
      excludedAttributes: ['emails'],
    });
  });

  it('refuses a body without the SearchRequest schema, or with lists and numbers of the wrong type', () => {
    for (const body of [{}, { schemas: [SCIM_SEARCH_REQUEST_SCHEMA], attributes: 'userName' }, { schemas: [SCIM_SEARCH_REQUEST_SCHEMA], count: '2' }, []]) {
      expect(() => scimSearchRequest(body)).toThrow(expect.objectContaining({ code: 'invalid_input', scimType: 'invalidValue' }));
    }
  });
});
