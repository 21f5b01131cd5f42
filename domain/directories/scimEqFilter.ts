import { parse as parseFilter } from 'scim2-parse-filter';
import { ScimError } from './scimError.ts';

/**
 * A SCIM filter this endpoint answers: `<attribute> eq "…"` for one of `attributes` (RFC 7644 §3.4.2.2, parsed by
 * `scim2-parse-filter`); anything else is 400 `invalidFilter`; none is no filter.
 */
export function scimEqFilter<A extends string>(filter: string | undefined, attributes: readonly A[]): { attribute: A; value: string } | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  let parsed: { op?: string; attrPath?: string; compValue?: unknown };
  try {
    parsed = parseFilter(filter) as typeof parsed;
  } catch {
    throw new ScimError(400, 'the filter is not SCIM filter syntax', { scimType: 'invalidFilter' });
  }
  const attribute = attributes.find((name) => name === parsed.attrPath);
  if (parsed.op !== 'eq' || !attribute || typeof parsed.compValue !== 'string') {
    throw new ScimError(400, `only ${attributes.map((name) => `${name} eq "…"`).join(' and ')} are answered`, { scimType: 'invalidFilter' });
  }
  return { attribute, value: parsed.compValue };
}
