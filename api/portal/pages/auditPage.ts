import { Readable } from 'node:stream';
import { exportAuditEvents } from '../../../domain/audit/exportAuditEvents.ts';
import { portalAuditEvent, portalAuditExport } from '../../../domain/portal/portalAuditView.ts';
import type { AuditEvent } from '../../../domain/schemas/audit.ts';
import { html } from '../portalHtml.ts';
import type { PortalIntentPage } from '../portalIntentPage.ts';

const PAGE_SIZE = 50;

/**
 * The tenant's audit log (SPEC §audit): browse its events newest first, and export them all as CSV or NDJSON, each
 * event as the customer may see it (portalAuditView.ts).
 */
export const auditPage: PortalIntentPage = {
  title: 'Audit log',
  notices: {},

  async view(scope, { query }) {
    const cursor = Number(query.get('cursor'));
    const page = JSON.parse((await scope.deps.stores.audit.pageJson({ tenant_id: scope.tenant.id, limit: PAGE_SIZE, ...(Number.isSafeInteger(cursor) && cursor > 0 ? { cursor } : {}) })).json) as {
      items: AuditEvent[];
      next_cursor?: number | string;
    };
    return html`<section aria-labelledby="export-heading">
  <h2 id="export-heading">Export</h2>
  <p>Every event of this tenant, oldest first: <a href="/portal/audit/export?format=csv" download>download CSV</a> or <a href="/portal/audit/export?format=ndjson" download>download NDJSON</a>.</p>
</section>
<section aria-labelledby="events-heading">
  <h2 id="events-heading">Events, newest first</h2>
  ${page.items.length === 0 ? html`<p>No event.</p>` : html`<table>
    <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Target</th><th scope="col">Details</th></tr></thead>
    <tbody>${page.items.map(portalAuditEvent).map((e) => html`<tr>
      <td>${e.created_at}</td><td>${e.action}</td><td>${e.actor_type ?? ''}<br><span class="hint">${e.actor_id ?? ''}</span></td><td>${e.target_type ?? ''} ${e.target_name ?? e.target_id ?? ''}</td>
      <td>${e.metadata ? html`<details><summary>Details</summary><pre>${JSON.stringify(e.metadata, null, 2)}</pre></details>` : '—'}</td>
    </tr>`)}</tbody>
  </table>`}
  ${page.next_cursor !== undefined ? html`<p><a href="/portal/audit?cursor=${String(page.next_cursor)}">Older events</a></p>` : ''}
</section>`;
  },

  actions: {},

  downloads: {
    async export(scope, query) {
      const csv = query.get('format') === 'csv';
      const chunks = await exportAuditEvents(scope.deps.stores.audit, scope.deps.auditReads, { tenant_id: scope.tenant.id, ...(csv ? { format: 'csv' as const } : {}) }, portalAuditExport);
      return {
        contentType: csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
        filename: `audit-events-${scope.tenant.slug}.${csv ? 'csv' : 'ndjson'}`,
        body: Readable.from(chunks, { objectMode: false, highWaterMark: 1 }),
      };
    },
  },
};
