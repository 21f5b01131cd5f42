import { describe, expect, it } from 'vitest';
import { portalAuditEvent, portalAuditExport } from '../../../domain/portal/portalAuditView.ts';

const base = { id: 7, action: 'tenant.updated', created_at: '2026-12-01T12:00:00.000Z', hash: 'a'.repeat(64) };

describe("what the portal shows of an event", () => {
  it("drops the client address, the user agent and the operator's tenant fields at any depth, and keeps the rest", () => {
    const shown = portalAuditEvent({
      ...base,
      actor_id: 'operator-console',
      source_ip: '10.1.2.3',
      user_agent: 'OperatorConsole/7.1',
      metadata: { changes: { name: { old: 'A', new: 'B' }, sales_owner: { old: 'alice', new: 'bob' }, payment_cust_id: { old: null, new: 'cus_1' } }, erp_customer_id: 'ERP-1', plan: 'pro' },
    });
    expect(shown).toEqual({ ...base, actor_id: 'operator-console', metadata: { changes: { name: { old: 'A', new: 'B' } }, plan: 'pro' } });
  });

  it("does the same to the export's rows: the columns of a CSV line and the answer of an NDJSON line", () => {
    const columns = portalAuditExport.columns({
      id: '7', action: 'tenant.activated', tenant_id: null, project_id: null, actor_id: 'ops', actor_name: null, actor_type: 'service', target_id: null, target_type: null,
      target_name: null, product: null, metadata: '{"to":"active","erp_customer_id":"ERP-1"}', source_ip: '10.1.2.3', user_agent: 'OperatorConsole/7.1', recorded_by: 'ops',
      created_at: base.created_at, hash: base.hash,
    });
    expect(columns).toMatchObject({ source_ip: null, user_agent: null, actor_id: 'ops', metadata: '{"to":"active"}' });
    const answer = portalAuditExport.answer({
      id: '7',
      answer: `{"id":7,"action":"tenant.activated","created_at":"${base.created_at}","actor_id":"ops","actor_type":"service","source_ip":"10.1.2.3","user_agent":"OperatorConsole/7.1","recorded_by":"ops","metadata":{"to": "active", "erp_customer_id": "ERP-1"},"hash":"${base.hash}"}`,
    });
    // The NDJSON line: the same fields in the same order, without the address, the agent and the operator's field.
    expect(answer).toEqual({ id: '7', answer: `{"id":7,"action":"tenant.activated","created_at":"${base.created_at}","actor_id":"ops","actor_type":"service","recorded_by":"ops","metadata":{"to":"active"},"hash":"${base.hash}"}` });
  });
});
