import { keptAnswer } from './keptAnswer.ts';
import type { RegistryCache } from './registryCache.ts';

/**
 * A listing's page for `query` from the registry cache while it holds it, else `read`'s, then kept (as keptAnswer
 * keeps an answer: a full page of tenants, keys or invitations is long enough to be cheaper to send again as bytes).
 * Every replica forgets a listing's pages at any change of what it lists: the replica that made the change when it
 * commits (the change's `staleListings`), the others when the tables' notifications arrive (store/changeListener.ts).
 * A read that raced a change is not kept (the cache's generation); a read that throws (no such tenant) keeps nothing.
 */
export async function keptListing(cache: RegistryCache | undefined, listing: string, query: string, read: () => Promise<string>): Promise<string | Buffer> {
  const held = cache?.listings.page(listing, query);
  if (held !== undefined) return held;
  const generation = cache?.generation() ?? 0;
  const answer = keptAnswer(await read());
  cache?.listings.put(listing, query, answer, generation);
  return answer;
}
