/**
 * A read the registry cache missed: the store's answer, or, when the store cannot be read, the cache's copy younger
 * than its staleIfErrorMs (`stale`), else the store's failure. A stale answer says so, and its caller does not store
 * it back as fresh, which would renew its window for as long as reads fail.
 */
export async function readOrStale<T>(read: () => Promise<T>, stale: () => T | undefined): Promise<{ value: T; stale: boolean }> {
  try {
    return { value: await read(), stale: false };
  } catch (error) {
    const copy = stale();
    if (copy === undefined) throw error;
    return { value: copy, stale: true };
  }
}
