import type { RegistryContext } from '../registryContext.ts';
import type { DirectoryRecord } from './directoryRecord.ts';

/**
 * A directory and the reads of its users, from the registry cache while it holds them (every replica forgets a
 * directory's at its next change: the tables' notifications, store/changeListener.ts), else from the store. A load
 * that raced a change is not kept (the cache's generation).
 */
export async function findDirectory({ stores, cache }: RegistryContext, id: string): Promise<DirectoryRecord | undefined> {
  const cached = cache?.directories.get(id);
  if (cached) return cached;
  const generation = cache?.generation() ?? 0;
  const found = await stores.directories.find(id);
  if (found) cache?.directories.put(found, generation);
  return found;
}

/** `read`'s answer for the directory's `query` (its kind and parameters): kept until the directory changes. */
export async function readOfDirectory<T>({ cache }: RegistryContext, directoryId: string, query: string, read: () => Promise<T>): Promise<T> {
  const cached = cache?.directories.read<T>(directoryId, query);
  if (cached !== undefined) return cached;
  const generation = cache?.generation() ?? 0;
  const value = await read();
  cache?.directories.putRead(directoryId, query, value, generation);
  return value;
}
