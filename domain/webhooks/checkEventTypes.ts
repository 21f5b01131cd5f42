import { invalidInput } from '../errors.ts';
import { eventTypeOf } from '../events/eventCatalog.ts';

/**
 * The endpoint's types as stored, each once in the order given: each an action of the catalog, or a caller's own
 * action (an application event); a name under the service's prefixes that the catalog does not know is refused.
 */
export function checkEventTypes(types: readonly string[]): string[] {
  const unknown = types.filter((type) => eventTypeOf(type) === undefined);
  if (unknown.length > 0) throw invalidInput(`types not in the event catalog (GET /asyncapi.json): ${unknown.join(', ')}`);
  return [...new Set(types)];
}
