import { isoTimestampSql, jsonStringSql, optionalFieldSql } from './jsonTextSql.ts';

const isoOrNull = (column: string) => `coalesce('"' || ${isoTimestampSql(column)} || '"', 'null')`;

/**
 * An api_keys row (aliased `k`) as the API's ApiKey JSON (domain/apiKeys/apiKeyResponse.ts#toApiKey): the same keys
 * in the same order, product and created_by left out when empty. Null when the row is absent (a left join's miss).
 */
export const API_KEY_JSON_SQL = `'{"id":"' || k.id || '","tenant_id":"' || k.tenant_id || '","name":' || ${jsonStringSql('k.name')}
  || ',"scopes":' || to_json(k.scopes)::text || ',"prefix":' || ${jsonStringSql('k.prefix')}
  || ',"last_used_at":' || ${isoOrNull('k.last_used_at')} || ',"revoked_at":' || ${isoOrNull('k.revoked_at')}
  || ',"expires_at":' || ${isoOrNull('k.expires_at')} || ',"rotated_from":' || coalesce('"' || k.rotated_from || '"', 'null')
  || ',"created_at":"' || ${isoTimestampSql('k.created_at')} || '"'
  || ${optionalFieldSql('product', jsonStringSql("nullif(k.product, '')"))}
  || ${optionalFieldSql('created_by', jsonStringSql("nullif(k.created_by, '')"))} || '}'`;
