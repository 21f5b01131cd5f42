import { describe, expect, it } from 'vitest';
import { APPLICATION_EVENT_TYPE, catalogEntries, dataSchemaOf, eventMismatch, eventTypeOf } from '../../../domain/events/eventCatalog.ts';
import { SERVICE_OWNED_ACTION_PREFIXES } from '../../../domain/audit/serviceOwnedActions.ts';

describe('the event catalog', () => {
  it("knows the service's own actions by name, and gives a caller's action the application type", () => {
    expect(eventTypeOf('member.added')?.type).toBe('member.added');
    expect(eventTypeOf('billing.invoice_paid')?.type).toBe(APPLICATION_EVENT_TYPE);
    expect(eventTypeOf('member.teleported')).toBeUndefined();
    expect(eventTypeOf('toString')?.type).toBe(APPLICATION_EVENT_TYPE);
  });

  it("names every type under the service's own prefixes, so no service type falls to the application type", () => {
    for (const { name } of catalogEntries().filter((entry) => entry.name !== APPLICATION_EVENT_TYPE)) {
      expect(SERVICE_OWNED_ACTION_PREFIXES.some((prefix) => name.startsWith(prefix)), name).toBe(true);
    }
  });

  it('checks the fields a type always carries, and their kinds, and admits fields it does not name', () => {
    expect(eventMismatch('api_key.revoked', { prefix: 'trk_1' })).toBeUndefined();
    expect(eventMismatch('api_key.revoked', { prefix: 'trk_1', later_field: true })).toBeUndefined();
    expect(eventMismatch('api_key.revoked', {})).toMatch(/prefix/);
    expect(eventMismatch('tenant.trial_ending', { days_left: 2.5, trial_ends_at: '2026-12-24T00:00:00.000Z' })).toMatch(/days_left/);
    expect(eventMismatch('invitation.expired', { expires_at: 'tomorrow' })).toMatch(/expires_at/);
  });

  it('reads absent metadata as an empty object: fine for a type with no required field, a mismatch otherwise', () => {
    expect(eventMismatch('audit.stream_deleted', null)).toBeUndefined();
    expect(eventMismatch('tenant.created', null)).toMatch(/kind/);
  });

  it("gives every type a JSON Schema of an object, the metadata's fields its properties", () => {
    for (const { name, definition } of catalogEntries()) {
      const schema = dataSchemaOf(definition);
      expect(schema.type, name).toBe('object');
    }
    expect(dataSchemaOf(eventTypeOf('api_key.rotated')!.definition)).toMatchObject({
      properties: { grace_seconds: { type: 'integer' }, old_key_expires_at: { type: 'string', format: 'date-time' } },
      required: expect.arrayContaining(['prefix', 'new_key_id', 'grace_seconds']),
    });
  });
});
