import { attributeList, type ScimAttributeSelection } from './scimAttributeSelection.ts';
import { SCIM_MAX_RESULTS } from './scimDiscovery.ts';
import { ScimError } from './scimError.ts';

export const SCIM_SEARCH_REQUEST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/** A list asked of Users or Groups (RFC 7644 §3.4.2): filter, 1-based page, and which attributes to answer. */
export interface ScimListRequest extends ScimAttributeSelection {
  filter?: string;
  startIndex: number;
  /** Cut to SCIM_MAX_RESULTS. */
  count: number;
}

/** A list's paging as asked: startIndex below 1 is 1, count absent or above the largest page is that page. */
const paging = (startIndex: number | undefined, count: number | undefined) => ({
  startIndex: Math.max(1, startIndex ?? 1),
  count: Math.min(SCIM_MAX_RESULTS, Math.max(0, count ?? SCIM_MAX_RESULTS)),
});

/** The list request of a GET's query parameters (the attribute lists comma-separated). */
export function scimListRequestOfQuery(query: { filter?: string; startIndex?: number; count?: number; attributes?: string; excludedAttributes?: string }): ScimListRequest {
  return {
    ...paging(query.startIndex, query.count),
    ...(query.filter !== undefined ? { filter: query.filter } : {}),
    ...scimSelectionOfQuery(query),
  };
}

/** The attributes a GET's query parameters ask (comma-separated; one list or the other). */
export const scimSelectionOfQuery = (query: { attributes?: string; excludedAttributes?: string }): ScimAttributeSelection =>
  selectionOf(attributeList(query.attributes), attributeList(query.excludedAttributes));

function selectionOf(attributes: string[] | undefined, excludedAttributes: string[] | undefined): ScimAttributeSelection {
  if (attributes?.length && excludedAttributes?.length) throw new ScimError('invalid_input', 'attributes and excludedAttributes cannot be asked together', { scimType: 'invalidSyntax' });
  return { ...(attributes ? { attributes } : {}), ...(excludedAttributes ? { excludedAttributes } : {}) };
}

const invalid = (detail: string) => new ScimError('invalid_input', detail, { scimType: 'invalidValue' });
const stringList = (value: unknown, name: string): string[] | undefined => {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw invalid(`${name} must be a list of attribute names`);
  return value as string[];
};
const wholeNumber = (value: unknown, name: string): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(`${name} must be an integer`);
  return value;
};

/** The list request of a `POST …/.search` body (RFC 7644 §3.4.3), read as a GET's query is. */
export function scimSearchRequest(body: unknown): ScimListRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the body must be a SearchRequest');
  const input = body as Record<string, unknown>;
  if (!Array.isArray(input.schemas) || !input.schemas.includes(SCIM_SEARCH_REQUEST_SCHEMA)) throw invalid(`a SearchRequest names the schema ${SCIM_SEARCH_REQUEST_SCHEMA}`);
  if (input.filter !== undefined && input.filter !== null && (typeof input.filter !== 'string' || input.filter.length > 1000)) throw invalid('filter must be a SCIM filter');
  return {
    ...paging(wholeNumber(input.startIndex, 'startIndex'), wholeNumber(input.count, 'count')),
    ...(typeof input.filter === 'string' ? { filter: input.filter } : {}),
    ...selectionOf(stringList(input.attributes, 'attributes'), stringList(input.excludedAttributes, 'excludedAttributes')),
  };
}
