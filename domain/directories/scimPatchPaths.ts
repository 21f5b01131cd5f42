import { isPrototypeName, refusedKeyPath } from '../sharedPrototypeKeys.ts';
import { schemas } from './scimDiscovery.ts';
import { ScimError } from './scimError.ts';

interface SchemaAttribute {
  name: string;
  subAttributes?: SchemaAttribute[];
}

const invalidPath = (detail: string) => new ScimError('invalid_input', detail, { scimType: 'invalidPath' });

/** RFC 7644 §3.5.2's PATH: [schema URN ":"] attribute [ "." sub | "[" filter "]" [ "." sub ] ]. */
const PATH = /^(?:(urn:[^[\]]+):)?([A-Za-z$][\w$-]*)(?:\.([A-Za-z$][\w$-]*))?(?:\[([^\]]*)\](?:\.([A-Za-z$][\w$-]*))?)?$/;
/** The attribute names a value filter compares (`type eq "work" and primary pr`). */
const FILTER_ATTRIBUTE = /([A-Za-z$][\w$.-]*)\s+(?:eq|ne|co|sw|ew|gt|ge|lt|le|pr)\b/gi;

const named = (attributes: readonly SchemaAttribute[] | undefined, name: string) => attributes?.find((a) => a.name.toLowerCase() === name.toLowerCase());

/** RFC 7643 §3.1's attributes of every resource, which no resource schema lists: Okta's rename PATCH carries `id`. */
const COMMON_ATTRIBUTES: SchemaAttribute[] = [
  { name: 'id' },
  { name: 'externalId' },
  { name: 'meta', subAttributes: ['resourceType', 'created', 'lastModified', 'location', 'version'].map((name) => ({ name })) },
];

function attributesOf(schemaId: string): SchemaAttribute[] {
  const schema = schemas('').find((s) => s.id === schemaId);
  if (!schema) throw new Error(`no SCIM schema ${schemaId}`);
  const own = schema.attributes as SchemaAttribute[];
  return [...own, ...COMMON_ATTRIBUTES.filter((common) => !named(own, common.name))];
}


/** Refuses a path that goes through a prototype's name or names no attribute (or sub-attribute) of the schema. */
function checkPath(path: string, schemaId: string, attributes: readonly SchemaAttribute[]): void {
  const parsed = PATH.exec(path.trim());
  if (!parsed) throw invalidPath(`the path "${path}" is not a SCIM attribute path`);
  const [, urn, name, sub, filter, subAfterFilter] = parsed;
  // Compared values are quoted strings: only what is outside them names attributes.
  const filterNames = [...(filter ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""').matchAll(FILTER_ATTRIBUTE)].map((m) => m[1]!);
  const names = [name!, sub, subAfterFilter, ...filterNames].filter((n): n is string => n !== undefined);
  if (names.some(isPrototypeName) || (filter !== undefined && /__proto__|constructor|prototype/i.test(filter))) throw invalidPath(`the path "${path}" names a prototype`);
  if (urn !== undefined && urn.toLowerCase() !== schemaId.toLowerCase()) throw invalidPath(`the path "${path}" names another schema than ${schemaId}`);
  const attribute = named(attributes, name!);
  if (!attribute) throw invalidPath(`the path "${path}" names no attribute of ${schemaId}`);
  for (const child of [sub, subAfterFilter, ...filterNames]) {
    if (child !== undefined && !named(attribute.subAttributes, child)) throw invalidPath(`the path "${path}" names no sub-attribute of ${attribute.name}`);
  }
}

/**
 * Checks a PatchOp's operations against the resource's schema before anything applies them (SPEC-EXTENSIONS §13):
 * each `path`, each key of a value without path (which are paths too), and no key anywhere in a value through a
 * prototype's name. Any other is 400 invalidPath.
 */
export function checkScimPatchPaths(operations: readonly unknown[], schemaId: string): void {
  const attributes = attributesOf(schemaId);
  for (const operation of operations) {
    if (typeof operation !== 'object' || operation === null) throw new ScimError('invalid_input', 'each operation must be an object', { scimType: 'invalidSyntax' });
    const { path, value } = operation as { path?: unknown; value?: unknown };
    const refused = refusedKeyPath(operation);
    if (refused) throw invalidPath(`the operation names a prototype (${refused})`);
    if (path !== undefined && path !== null) {
      if (typeof path !== 'string') throw invalidPath('a path must be a string');
      checkPath(path, schemaId, attributes);
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const key of Object.keys(value)) if (key !== 'schemas') checkPath(key, schemaId, attributes);
    }
  }
}

/** Refuses a resource (POST, PUT) with a key anywhere through a prototype's name: 400 invalidPath. */
export function checkScimResourceKeys(body: unknown): void {
  const refused = refusedKeyPath(body);
  if (refused) throw invalidPath(`the resource names a prototype (${refused})`);
}
