/**
 * A request's query as Koa's `ctx.query` makes it (a name given once: its text; given more than once: the list of its
 * texts), without Koa's cache of it. That cache is an object per request keyed by the whole query string: every
 * distinct query string became a property name of a fresh object, so V8 made a hidden class for each (kept in the old
 * generation) and interned the string, on every request of a look-up by a distinct value (SCIM's filter by userName).
 */
export function queryObject(search: string): Record<string, string | string[]> {
  const params = new URLSearchParams(search);
  // No prototype: a parameter named `__proto__` is a name like any other, where on a plain object (as Koa's) assigning
  // it would set the object's prototype, or throw in a process run with --disable-proto=throw (a 500).
  const query: Record<string, string | string[]> = Object.create(null);
  for (const name of params.keys()) {
    const values = params.getAll(name);
    query[name] = values.length <= 1 ? values[0]! : values;
  }
  return query;
}
