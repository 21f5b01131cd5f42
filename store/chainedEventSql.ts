/**
 * The columns of an event as the events feed reads it (domain/events/cloudEvent.ts's ChainedEventRow), from
 * `audit_events e`: its time to the microsecond as the chain's hash covers it, and the hash of the event before it in
 * the chain, whichever tenant that one belongs to (the same predecessor GET /v1/audit/integrity recomputes from: the
 * hash a tenant's retention kept in audit_chain_links when it removed that one).
 */
export const CHAINED_EVENT_COLUMNS = `e.id, e.action, e.tenant_id, e.project_id, e.actor_id, e.actor_name, e.actor_type, e.target_id,
  e.target_type, e.target_name, e.product, e.metadata::text as metadata, e.source_ip, e.user_agent, e.recorded_by,
  to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as time, e.hash,
  coalesce((select l.previous_hash from audit_chain_links l where l.id = e.id),
           (select p.hash from audit_events p where p.id < e.id order by p.id desc limit 1), repeat('0', 64)) as previous_hash`;
