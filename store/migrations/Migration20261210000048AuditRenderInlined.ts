import { Migration } from '@mikro-orm/migrations';
import { AUDIT_EVENT_ANSWER_SQL, AUDIT_EVENT_CLOUD_EVENT_SQL } from './Migration20261209000047AuditRenderedOnce.ts';

/**
 * The chain trigger's two renderings become part of its own expressions. As migration 047 made them (immutable over
 * stable functions, to_char and to_json, with a pinned search_path), PostgreSQL could not inline them, and every
 * append ran each as a separate SQL function inside the chain's lock. Now they are stable with SQL-standard bodies:
 * every name is bound when the function is made, so no caller's search_path can redirect one (what the pinned path
 * did), and the planner inlines both into the trigger. What they render is unchanged.
 */
export class Migration20261210000048AuditRenderInlined extends Migration {
  override name = 'Migration20261210000048AuditRenderInlined';

  up(): void {
    this.addSql(`
      create or replace function public.audit_event_answer(e public.audit_events) returns text
        language sql stable
        return ${AUDIT_EVENT_ANSWER_SQL}`);
    this.addSql(`
      create or replace function public.audit_event_cloud_event(e public.audit_events, previous_hash text) returns text
        language sql stable
        return ${AUDIT_EVENT_CLOUD_EVENT_SQL}`);
  }
}
