import { Parser } from '@asyncapi/parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogEntries, dataSchemaOf } from '../../../domain/events/eventCatalog.ts';
import { startTestService, type TestService } from '../../support/testService.ts';

let service: TestService;
let text: string;
beforeAll(async () => {
  service = await startTestService();
  const response = await fetch(`${service.baseUrl}/asyncapi.json`);
  expect(response.status).toBe(200);
  text = await response.text();
});
afterAll(() => service?.close());

/** Diagnostics of severity 0 are errors (Spectral's DiagnosticSeverity.Error); warnings and hints are not. */
const ERROR = 0;

describe('GET /asyncapi.json', () => {
  it('is an AsyncAPI 3.0 document that @asyncapi/parser reads with no error', async () => {
    const { document, diagnostics } = await new Parser().parse(text);
    expect(diagnostics.filter((d) => d.severity === ERROR).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.version()).toBe('3.0.0');
  });

  it('has one message per event type, named by the type, its payload the JSON Schema of the metadata', async () => {
    const { document } = await new Parser().parse(text);
    const messages = new Map(document!.allMessages().all().map((message) => [message.name(), message]));
    const entries = catalogEntries();
    expect([...messages.keys()].sort()).toEqual(entries.map((entry) => entry.name).sort());
    for (const { name, definition } of entries) {
      const { $schema: _draft, ...expected } = dataSchemaOf(definition);
      expect(messages.get(name)!.payload()!.json(), name).toMatchObject(expected);
    }
  });

  it('is the same bytes at every request', async () => {
    expect(await (await fetch(`${service.baseUrl}/asyncapi.json`)).text()).toBe(text);
  });
});
