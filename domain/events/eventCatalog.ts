import { z } from 'zod';
import { isServiceOwnedAction } from '../audit/serviceOwnedActions.ts';
import { APPLICATION_EVENT, EVENT_TYPES, type EventTypeDefinition, type ServiceEventType } from './eventTypes.ts';

/** The name of the catalog's entry for the events callers append (their own actions): a message of its own. */
export const APPLICATION_EVENT_TYPE = 'application';

/** The catalog's entry for an audit action: the service's own type, or the application type for a caller's action. */
export type EventTypeOf = { type: ServiceEventType; definition: EventTypeDefinition } | { type: typeof APPLICATION_EVENT_TYPE; definition: EventTypeDefinition };

/**
 * The event type of an action, or undefined for an action under the service's own prefixes that the catalog does not
 * know (which no appended event may have).
 */
export function eventTypeOf(action: string): EventTypeOf | undefined {
  if (Object.hasOwn(EVENT_TYPES, action)) return { type: action as ServiceEventType, definition: EVENT_TYPES[action as ServiceEventType] };
  return isServiceOwnedAction(action) ? undefined : { type: APPLICATION_EVENT_TYPE, definition: APPLICATION_EVENT };
}

/** Every entry of the catalog, the service's types by name and the application type last. */
export function catalogEntries(): { name: string; definition: EventTypeDefinition }[] {
  return [
    ...Object.entries(EVENT_TYPES).map(([name, definition]) => ({ name, definition: definition as EventTypeDefinition })),
    { name: APPLICATION_EVENT_TYPE, definition: APPLICATION_EVENT },
  ];
}

/** The JSON Schema (draft-07, as AsyncAPI's schema format is) of a type's metadata: the CloudEvent's data. */
export const dataSchemaOf = (definition: EventTypeDefinition): Record<string, unknown> =>
  z.toJSONSchema(definition.metadata, { target: 'draft-07', unrepresentable: 'any' }) as Record<string, unknown>;

/** Why an appended event does not fit the catalog, or undefined when it does. Absent metadata is read as `{}`. */
export function eventMismatch(action: string, metadata: unknown): string | undefined {
  const entry = eventTypeOf(action);
  if (!entry) return `unknown event type ${JSON.stringify(action)}`;
  const parsed = entry.definition.metadata.safeParse(metadata ?? {});
  return parsed.success ? undefined : `${action}: ${z.prettifyError(parsed.error)}`;
}
