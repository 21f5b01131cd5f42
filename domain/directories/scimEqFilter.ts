import { parse as parseFilter } from 'scim2-parse-filter';
import { ScimError } from './scimError.ts';

/**
 * A SCIM filter this endpoint answers: `<attribute> eq "…"` for one of `attributes` (RFC 7644 §3.4.2.2, parsed by
 * `scim2-parse-filter`); anything else is 400 `invalidFilter`; none is no filter.
 */
export function scimEqFilter<A extends string>(filter: string | undefined, attributes: readonly A[]): { attribute: A; value: string } | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  type Parsed = { op?: string; attrPath?: string; compValue?: unknown };
  let parsed: Parsed | undefined = simpleEq(filter);
  try {
    parsed ??= parseFilter(filter) as unknown as Parsed;
  } catch {
    throw new ScimError('invalid_input', 'the filter is not SCIM filter syntax', { scimType: 'invalidFilter' });
  }
  if (!parsed) throw new ScimError('invalid_input', 'the filter is not SCIM filter syntax', { scimType: 'invalidFilter' });
  const attribute = attributes.find((name) => name === parsed.attrPath);
  if (parsed.op !== 'eq' || !attribute || typeof parsed.compValue !== 'string') {
    throw new ScimError('invalid_input', `only ${attributes.map((name) => `${name} eq "…"`).join(' and ')} are answered`, { scimType: 'invalidFilter' });
  }
  return { attribute, value: parsed.compValue };
}

/** `attr eq "…"` alone, the shape identity providers send on every look-up: an attribute name and a string without escapes. */
const SIMPLE_EQ = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s+eq\s+"([^"\\\u0000-\u001f]*)"\s*$/i;

/**
 * The simple shape read as the parser reads it, without building the parser's tree on every look-up; anything else,
 * a string with an escape included, is left to the parser (test/domain/directories/scimEqFilter.test.ts holds the two
 * to the same answers).
 */
function simpleEq(filter: string): { op: string; attrPath: string; compValue: string } | undefined {
  const match = SIMPLE_EQ.exec(filter);
  return match ? { op: 'eq', attrPath: match[1]!, compValue: match[2]! } : undefined;
}
