/**
 * Names that reach a shared prototype when a program walks or assigns by them (`a.__proto__.x = …`,
 * `a.constructor.prototype.x = …`): no key of a request body, and no SCIM path, may be one of them.
 */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export const isPrototypeName = (name: string): boolean => PROTOTYPE_NAMES.has(name.toLowerCase());

/**
 * The dotted path of the first key of `value` (at any depth, in objects and lists) that `refused` refuses, or undefined.
 * JSON.parse makes a `"__proto__"` key an own property, so Object.keys sees it.
 */
export function refusedKeyPath(value: unknown, refused: (key: string) => boolean = isPrototypeName, at = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = refusedKeyPath(item, refused, `${at}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const path = at === '' ? key : `${at}.${key}`;
    if (refused(key)) return path;
    const found = refusedKeyPath((value as Record<string, unknown>)[key], refused, path);
    if (found) return found;
  }
  return undefined;
}
