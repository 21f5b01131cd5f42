import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/testService.ts';

let service: TestService;
const tenantId = randomUUID();
beforeAll(async () => {
  service = await startTestService();
  // More than one export batch (EXPORT_BATCH), with text that CSV must quote.
  const values = Array.from({ length: 1203 }, (_, i) => `('export.event', '${tenantId}', 'actor-${i % 7}', '{"i": ${i}, "note": "a, \\"quoted\\"\\nline"}'::jsonb)`);
  await service.orm.em.fork().execute(`insert into audit_events (action, tenant_id, actor_id, metadata) values ${values.join(',')}`);
  await service.request('POST', '/v1/audit', { action: 'export.other', tenant_id: tenantId, target_name: 'comma, "and" quote' });
});
afterAll(() => service.close());

/** Every page of GET /v1/audit for the filter, oldest first. */
async function listed(query: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor = '';
  for (;;) {
    const page = (await service.request('GET', `/v1/audit?${query}&limit=500${cursor}`)).body;
    items.push(...page.items);
    if (!page.next_cursor) return items.reverse();
    cursor = `&cursor=${page.next_cursor}`;
  }
}

/** RFC 4180 parser for the test: quoted fields with doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++;
    else field += c;
  }
  return rows;
}

describe('GET /v1/audit/export', () => {
  it('NDJSON (the default) equals the paged listing event for event, oldest first', async () => {
    const res = await fetch(`${service.baseUrl}/v1/audit/export?tenant_id=${tenantId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await res.text()).split('\n');
    expect(lines.pop()).toBe('');
    const exported = lines.map((line) => JSON.parse(line));
    expect(exported).toHaveLength(1204);
    expect(exported).toEqual(await listed(`tenant_id=${tenantId}`));
  });

  it('honours every filter: an actor of the tenant', async () => {
    const text = await (await fetch(`${service.baseUrl}/v1/audit/export?tenant_id=${tenantId}&actor_id=actor-3&action=export.event`)).text();
    const exported = text.trim().split('\n').map((line) => JSON.parse(line));
    expect(exported).toEqual(await listed(`tenant_id=${tenantId}&actor_id=actor-3&action=export.event`));
    expect(exported.length).toBeGreaterThan(100);
  });

  it('CSV has a header naming every AuditEvent field and rows equal to the listing, quoted per RFC 4180', async () => {
    const res = await fetch(`${service.baseUrl}/v1/audit/export?tenant_id=${tenantId}&format=csv`);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const [header, ...rows] = parseCsv(await res.text());
    expect(header!.sort()).toEqual(
      ['id', 'created_at', 'action', 'tenant_id', 'project_id', 'actor_id', 'actor_name', 'actor_type', 'target_id', 'target_type', 'target_name', 'product', 'metadata', 'source_ip', 'user_agent', 'recorded_by', 'hash'].sort(),
    );
    const expected = await listed(`tenant_id=${tenantId}`);
    expect(rows).toHaveLength(expected.length);
    const columns = parseCsv((await (await fetch(`${service.baseUrl}/v1/audit/export?tenant_id=${tenantId}&format=csv`)).text()))[0]!;
    rows.forEach((row, i) => {
      const event = expected[i]!;
      for (const [at, column] of columns.entries()) {
        const value = event[column];
        const text = value === undefined ? '' : column === 'metadata' ? row[at] && JSON.parse(row[at]!) : row[at];
        expect(text, `${column} of event ${event.id}`).toEqual(column === 'metadata' ? (value ?? '') : value === undefined ? '' : String(value));
      }
    });
  });

  it("CSV neutralises a formula in a cell with a leading ' (a spreadsheet shows it as text); NDJSON keeps it as appended", async () => {
    const formulaTenant = randomUUID();
    const appended = await service.request('POST', '/v1/audit', { action: 'export.formula', tenant_id: formulaTenant, target_name: '=SUM(1)', actor_name: '@ada' });
    expect(appended.status).toBe(201);
    const [header, row] = parseCsv(await (await fetch(`${service.baseUrl}/v1/audit/export?tenant_id=${formulaTenant}&format=csv`)).text());
    const cell = (column: string) => row![header!.indexOf(column)];
    expect(cell('target_name')).toBe("'=SUM(1)");
    expect(cell('actor_name')).toBe("'@ada");
    const [exported] = (await (await fetch(`${service.baseUrl}/v1/audit/export?tenant_id=${formulaTenant}`)).text()).trim().split('\n').map((line) => JSON.parse(line));
    expect(exported).toMatchObject({ target_name: '=SUM(1)', actor_name: '@ada' });
  });

  it('an empty result is an empty body (CSV: the header alone)', async () => {
    const none = randomUUID();
    expect(await (await fetch(`${service.baseUrl}/v1/audit/export?tenant_id=${none}`)).text()).toBe('');
    expect((await (await fetch(`${service.baseUrl}/v1/audit/export?tenant_id=${none}&format=csv`)).text()).split('\r\n')).toHaveLength(2);
  });

  it('an unknown format or a bad filter answers 400', async () => {
    expect((await service.request('GET', '/v1/audit/export?format=xml')).status).toBe(400);
    expect((await service.request('GET', '/v1/audit/export?tenant_id=nope')).status).toBe(400);
  });
});
