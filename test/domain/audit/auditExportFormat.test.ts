import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, CSV_HEADER, csvField, csvLine, ndjsonLine } from '../../../domain/audit/auditExportFormat.ts';

const row = {
  id: '42', action: 'doc.shared', tenant_id: null, project_id: null, actor_id: 'ada', actor_name: 'Ada, "the" first', actor_type: 'user',
  target_id: null, target_type: null, target_name: 'line one\r\nline two', product: null, metadata: '{"a": 1}', source_ip: null, user_agent: null, recorded_by: null,
  created_at: '2026-11-22T12:00:00.123Z', hash: 'f'.repeat(64), answer: '{"id":42,"target_name":"=SUM(1)"}',
};

describe('audit export formats', () => {
  it('RFC 4180: fields with commas, quotes or line breaks are quoted with doubled quotes; others are bare; null is empty', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
  });

  it('a CSV line has every column in header order, metadata as JSON text, and ends with CRLF', () => {
    expect(CSV_HEADER).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
    const line = csvLine(row);
    expect(line.endsWith('\r\n')).toBe(true);
    expect(line).toBe(`42,2026-11-22T12:00:00.123Z,doc.shared,,,ada,"Ada, ""the"" first",user,,,"line one\r\nline two",,"{""a"": 1}",,,,${'f'.repeat(64)}\r\n`);
  });

  it("OWASP CSV injection: a cell starting with =, +, -, @, tab or carriage return gets a leading ' before RFC 4180 quoting", () => {
    expect(csvField('=SUM(1)')).toBe("'=SUM(1)");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('=HYPERLINK("http://x", "y")')).toBe(`"'=HYPERLINK(""http://x"", ""y"")"`);
    expect(csvField('a=1')).toBe('a=1');
    expect(csvField(' =1')).toBe(' =1');
  });

  it('a CSV line neutralises every text column; the id and the timestamp it generates are left as they are', () => {
    const line = csvLine({ ...row, actor_id: '@ada', target_name: '=SUM(1)', user_agent: '-x' });
    expect(line).toBe(`42,2026-11-22T12:00:00.123Z,doc.shared,,,'@ada,"Ada, ""the"" first",user,,,'=SUM(1),,"{""a"": 1}",,'-x,,${'f'.repeat(64)}\r\n`);
  });

  it("an NDJSON line is the event's stored answer as it is, then a newline: a formula-like value stays, only CSV is a spreadsheet's input", () => {
    expect(ndjsonLine(row)).toBe(`${row.answer}\n`);
  });
});
