import { isoTimestampSql, jsonStringSql } from './jsonTextSql.ts';

const iso = (column: string) => `'"' || ${isoTimestampSql(column)} || '"'`;
const isoOrNull = (column: string) => `coalesce(${iso(column)}, 'null')`;

/** An invitations row as the API's Invitation JSON (domain/invitations/invitationResponse.ts#toInvitation), byte for byte. */
export const INVITATION_JSON_SQL = `'{"id":"' || id || '","tenant_id":"' || tenant_id || '","email":' || ${jsonStringSql('email')}
  || ',"roles":' || to_json(roles)::text || ',"state":' || ${jsonStringSql('state')} || ',"expires_at":' || ${iso('expires_at')}
  || ',"invited_by":' || ${jsonStringSql('invited_by')} || ',"send_count":' || send_count
  || ',"last_sent_at":' || ${isoOrNull('last_sent_at')} || ',"accepted_at":' || ${isoOrNull('accepted_at')}
  || ',"accepted_user_id":' || coalesce(${jsonStringSql('accepted_user_id')}, 'null') || ',"revoked_at":' || ${isoOrNull('revoked_at')}
  || ',"created_at":' || ${iso('created_at')} || ',"updated_at":' || ${iso('updated_at')} || '}'`;
