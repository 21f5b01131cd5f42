import { DEFAULT_INVITATION_EXPIRY_DAYS, DEFAULT_INVITED_ROLE } from '../domain/invitations/invitationRecord.ts';
import { isoTimestampSql, jsonStringSql, optionalFieldSql } from './jsonTextSql.ts';

const quotedIso = (column: string) => `'"' || ${isoTimestampSql(column)} || '"'`;
const quotedDate = (column: string) => `'"' || to_char(${column}, 'YYYY-MM-DD') || '"'`;

/**
 * A tenants row as the API's Tenant JSON (domain/tenants/tenantResponse.ts#toTenant): the same keys in the same order,
 * settings with their defaults, the optional texts left out when empty.
 */
export const TENANT_JSON_SQL = `'{"id":"' || id || '","slug":' || ${jsonStringSql('slug')} || ',"name":' || ${jsonStringSql('name')}
  || ',"status":' || ${jsonStringSql('status')} || ',"kind":' || ${jsonStringSql('kind')} || ',"plan":' || ${jsonStringSql('plan')}
  || ',"trial_ends_at":' || coalesce(${quotedIso('trial_ends_at')}, 'null')
  || ',"contract_start":' || coalesce(${quotedDate('contract_start')}, 'null')
  || ',"contract_end":' || coalesce(${quotedDate('contract_end')}, 'null')
  || ',"settings":{"default_role":' || coalesce(nullif(settings->'default_role', 'null'), '"${DEFAULT_INVITED_ROLE}"')::text
  || ',"invitation_expiry_days":' || coalesce(nullif(settings->'invitation_expiry_days', 'null'), '${DEFAULT_INVITATION_EXPIRY_DAYS}')::text
  || ',"sign_in":{"require_sso":' || coalesce(nullif(settings#>'{sign_in,require_sso}', 'null'), 'false')::text
  || ',"mfa":' || coalesce(nullif(settings#>'{sign_in,mfa}', 'null'), '"off"')::text
  || case when jsonb_typeof(settings#>'{sign_in,session_max_hours}') = 'number' then ',"session_max_hours":' || (settings#>'{sign_in,session_max_hours}')::text else '' end
  || '}'
  || case when jsonb_typeof(settings->'audit_retention_days') = 'number' then ',"audit_retention_days":' || (settings->'audit_retention_days')::text else '' end
  || '},"created_at":' || ${quotedIso('created_at')} || ',"updated_at":' || ${quotedIso('updated_at')}
  || ${optionalFieldSql('erp_customer_id', jsonStringSql("nullif(erp_customer_id, '')"))}
  || ${optionalFieldSql('payment_cust_id', jsonStringSql("nullif(payment_cust_id, '')"))}
  || ${optionalFieldSql('sales_owner', jsonStringSql("nullif(sales_owner, '')"))} || '}'`;
