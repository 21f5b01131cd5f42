/**
 * RFC 7644 §3.4.2.5 and §3.9: `attributes` (only these, beside the ones always returned) and `excludedAttributes`
 * (all but these) of a resource answered. Names are case-insensitive, may carry their schema's URN and may name a
 * sub-attribute (`name.givenName`, `emails.value`, applied to each value of a multi-valued one).
 */
export interface ScimAttributeSelection {
  attributes?: string[];
  excludedAttributes?: string[];
}

/** Returned whatever the client asks (RFC 7643 §3.1: `id` is "always"; `schemas` names what the body is). */
const ALWAYS = new Set(['id', 'schemas']);

/** A comma-separated list of a query parameter, as the lists of a SearchRequest body are. */
export const attributeList = (text: string | undefined): string[] | undefined =>
  text === undefined ? undefined : text.split(',').map((name) => name.trim()).filter((name) => name !== '');

/** `[attribute, sub-attribute?]`, lower-cased, the schema's URN taken off. */
function pathOf(name: string, schema: string): [string, string | undefined] {
  let path = name.toLowerCase();
  const urn = `${schema.toLowerCase()}:`;
  if (path.startsWith(urn)) path = path.slice(urn.length);
  const [attribute, sub] = path.split('.', 2) as [string, string | undefined];
  return [attribute, sub];
}

/** The names asked of each attribute: `true` for the whole attribute, else its sub-attributes. */
function namesOf(list: string[], schema: string): Map<string, true | Set<string>> {
  const names = new Map<string, true | Set<string>>();
  for (const name of list) {
    const [attribute, sub] = pathOf(name, schema);
    const known = names.get(attribute);
    if (sub === undefined || known === true) names.set(attribute, true);
    else names.set(attribute, (known ?? new Set<string>()).add(sub));
  }
  return names;
}

/** A complex value (or each of a multi-valued one's) with its sub-attributes kept or dropped by `keep`. */
function mapSubAttributes(value: unknown, keep: (sub: string) => boolean): unknown {
  const one = (item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).filter(([sub]) => keep(sub.toLowerCase()))) : item;
  return Array.isArray(value) ? value.map(one) : one(value);
}

export function selectScimAttributes(resource: Record<string, unknown>, schema: string, selection: ScimAttributeSelection): Record<string, unknown> {
  if (selection.attributes && selection.attributes.length > 0) {
    const asked = namesOf(selection.attributes, schema);
    const selected: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(resource)) {
      const wanted = ALWAYS.has(key) ? true : asked.get(key.toLowerCase());
      if (wanted === true) selected[key] = value;
      else if (wanted) selected[key] = mapSubAttributes(value, (sub) => wanted.has(sub));
    }
    return selected;
  }
  if (selection.excludedAttributes && selection.excludedAttributes.length > 0) {
    const excluded = namesOf(selection.excludedAttributes, schema);
    const selected: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(resource)) {
      const unwanted = ALWAYS.has(key) ? undefined : excluded.get(key.toLowerCase());
      if (unwanted === undefined) selected[key] = value;
      else if (unwanted !== true) selected[key] = mapSubAttributes(value, (sub) => !unwanted.has(sub));
    }
    return selected;
  }
  return resource;
}
