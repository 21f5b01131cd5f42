/** RFC 7643's schemas and RFC 7644's discovery documents for a directory's SCIM endpoint at `base`. */
export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** The largest page a list answers (`count` above it is cut to it). */
export const SCIM_MAX_RESULTS = 200;

export function serviceProviderConfig(base: string) {
  return {
    schemas: [CONFIG_SCHEMA],
    documentationUri: `${base}/ServiceProviderConfig`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      { type: 'oauthbearertoken', name: 'Bearer token', description: "The directory's token (POST /v1/tenants/{id}/directories)", primary: true },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

const resourceType = (base: string, id: 'User' | 'Group', endpoint: string, schema: string) => ({
  schemas: [RESOURCE_TYPE_SCHEMA],
  id,
  name: id,
  endpoint,
  schema,
  meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${id}` },
});

export const resourceTypes = (base: string) => [resourceType(base, 'User', '/Users', SCIM_USER_SCHEMA), resourceType(base, 'Group', '/Groups', SCIM_GROUP_SCHEMA)];

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export const schemas = (base: string) => [
  {
    schemas: [SCHEMA_SCHEMA],
    id: SCIM_USER_SCHEMA,
    name: 'User',
    description: 'User Account',
    attributes: [
      attribute('userName', 'string', { required: true, uniqueness: 'server' }),
      attribute('name', 'complex', { subAttributes: [attribute('givenName', 'string'), attribute('familyName', 'string'), attribute('formatted', 'string')] }),
      attribute('displayName', 'string'),
      attribute('active', 'boolean'),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('emails', 'complex', {
        multiValued: true,
        subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')],
      }),
      attribute('groups', 'complex', {
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          attribute('value', 'string', { mutability: 'readOnly' }),
          attribute('$ref', 'reference', { mutability: 'readOnly', referenceTypes: ['Group'] }),
          attribute('display', 'string', { mutability: 'readOnly' }),
          attribute('type', 'string', { mutability: 'readOnly', canonicalValues: ['direct'] }),
        ],
      }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${SCIM_USER_SCHEMA}` },
  },
  {
    schemas: [SCHEMA_SCHEMA],
    id: SCIM_GROUP_SCHEMA,
    name: 'Group',
    description: 'Group',
    attributes: [
      attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('members', 'complex', {
        multiValued: true,
        subAttributes: [
          attribute('value', 'string', { mutability: 'immutable' }),
          attribute('$ref', 'reference', { mutability: 'immutable', referenceTypes: ['User'] }),
          attribute('display', 'string', { mutability: 'readOnly' }),
          attribute('type', 'string', { mutability: 'immutable', canonicalValues: ['User'] }),
        ],
      }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${SCIM_GROUP_SCHEMA}` },
  },
];

export const listResponse = <T>(resources: T[], startIndex = 1, totalResults = resources.length) => ({
  schemas: [SCIM_LIST_SCHEMA],
  totalResults,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
