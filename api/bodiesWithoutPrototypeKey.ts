/**
 * Every JSON body is refused (400) if any object in it, at any depth, has a `"__proto__"` key (readJsonBody). The route
 * schemas describe what each operation reads and say nothing of that rule, so the document builder writes it into each
 * request body's schema: an object that admits keys it does not name admits none called `__proto__`, and a value the
 * schema leaves open is a JsonValue, which says the same at every depth. A generated client or test then sends what the
 * service takes.
 */

const JSON_VALUE_SCHEMA_NAME = 'JsonValue';
const COMPONENT_REF_PREFIX = '#/components/schemas/';
const NO_PROTOTYPE_KEY = { not: { const: '__proto__' } };
const JSON_VALUE_REF = { $ref: `${COMPONENT_REF_PREFIX}${JSON_VALUE_SCHEMA_NAME}` };

const JSON_VALUE = {
  description: 'any JSON value in which no object has a "__proto__" key (a body with one, at any depth, is 400)',
  anyOf: [
    { type: ['null', 'boolean', 'number', 'string'] },
    // `unevaluatedItems` says what `items` would here (there is no `items`): a client generator such as openapi-typescript
    // renders that as `unknown[]`, where `items` would make a type TypeScript refuses as referring to itself.
    { type: 'array', unevaluatedItems: JSON_VALUE_REF },
    { type: 'object', propertyNames: NO_PROTOTYPE_KEY, additionalProperties: JSON_VALUE_REF },
  ],
};

type Schema = Record<string, unknown>;

/** Keywords that constrain nothing: a schema of only these admits any value. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const admitsAnything = (schema: Schema) => Object.keys(schema).every((key) => ANNOTATIONS.has(key));
/** A schema of objects: a fragment without a type (a branch of an object's anyOf) leaves its keys to the object's. */
const isObjectSchema = (schema: Schema) => schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));

/** What of an OpenAPI 3.1 document this reads and writes. */
interface DocumentParts {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } } | undefined> | undefined>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The document with the rule written into the body of each of `operations` (those whose body the router reads) and
 * into every schema such a body reaches, components included (once each; what a response shares holds there too).
 */
export function withBodiesWithoutPrototypeKey<D extends object>(document: D, operations: { path: string; method: string }[]): D {
  const parts = document as DocumentParts;
  const schemas = ((parts.components ??= {}).schemas ??= {});
  const visited = new Set<string>();
  let valueUsed = false;

  const rewrite = (schema: unknown): unknown => {
    if (!isSchema(schema)) return schema;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.startsWith(COMPONENT_REF_PREFIX) ? schema.$ref.slice(COMPONENT_REF_PREFIX.length) : undefined;
      if (name !== undefined && schemas[name] !== undefined && !visited.has(name)) {
        visited.add(name);
        schemas[name] = rewrite(schemas[name]);
      }
      return schema;
    }
    if (admitsAnything(schema)) {
      valueUsed = true;
      return { ...schema, ...JSON_VALUE_REF };
    }
    const out: Schema = { ...schema };
    if (isObjectSchema(schema) && schema.additionalProperties !== false) {
      out.propertyNames = schema.propertyNames === undefined ? NO_PROTOTYPE_KEY : { allOf: [schema.propertyNames, NO_PROTOTYPE_KEY] };
      const open = schema.additionalProperties === undefined || schema.additionalProperties === true;
      valueUsed ||= open;
      out.additionalProperties = open ? JSON_VALUE_REF : rewrite(schema.additionalProperties);
    }
    for (const key of ['properties', 'patternProperties'] as const) {
      const named = schema[key];
      if (isSchema(named)) out[key] = Object.fromEntries(Object.entries(named).map(([name, value]) => [name, rewrite(value)]));
    }
    if (schema.items !== undefined) out.items = rewrite(schema.items);
    for (const key of ['prefixItems', 'anyOf', 'oneOf', 'allOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) out[key] = branches.map(rewrite);
    }
    return out;
  };

  for (const { path, method } of operations) {
    for (const media of Object.values(parts.paths?.[path]?.[method]?.requestBody?.content ?? {})) media.schema = rewrite(media.schema);
  }
  if (valueUsed) schemas[JSON_VALUE_SCHEMA_NAME] = JSON_VALUE;
  return document;
}
