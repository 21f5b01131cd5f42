import type { DirectoryRecord } from '../directories/directoryRecord.ts';
import { BoundedTtlMap } from './boundedTtlMap.ts';
import type { CacheValidity } from './cacheValidity.ts';
import { ScopedReads } from './scopedReads.ts';

/** The SCIM endpoint's directories: each directory's record (its token hashes) and its users' reads answered lately, by their query. */
export class DirectoryCache {
  readonly #validity: CacheValidity;
  readonly #directories: BoundedTtlMap<string, DirectoryRecord>;
  /** By directory id, its reads by query; the whole directory's go at its next change. */
  readonly #reads: ScopedReads;

  constructor(validity: CacheValidity, maxDirectories: number, maxReadBytes: number) {
    this.#validity = validity;
    this.#directories = new BoundedTtlMap(maxDirectories);
    // One directory at most a quarter of the reads' bytes, so its users' look-ups cannot push out every other's.
    this.#reads = new ScopedReads(maxReadBytes, Math.floor(maxReadBytes / 4));
  }

  get(id: string): DirectoryRecord | undefined {
    return this.#validity.active ? this.#directories.get(id, this.#validity.now()) : undefined;
  }

  /** A read of the directory's users answered lately for `query` (its kind and parameters), still fresh. */
  read<T>(directoryId: string, query: string): T | undefined {
    return this.#validity.active ? (this.#reads.get(directoryId, query, this.#validity.now()) as T | undefined) : undefined;
  }

  put(directory: DirectoryRecord, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#directories.set(directory.id, directory, now + this.#validity.ttlMs, now);
  }

  putRead(directoryId: string, query: string, value: unknown, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#reads.set(directoryId, query, value, now + this.#validity.ttlMs, now);
  }

  /** The directory's record and every read of its users. */
  forget(id: string): void {
    this.#directories.delete(id);
    this.#reads.forget(id);
  }

  sweep(now: number): void {
    this.#directories.sweep(now, this.#validity.staleIfErrorMs);
    this.#reads.sweep(now);
  }

  clear(): void {
    this.#directories.clear();
    this.#reads.clear();
  }

  held(): { directory: number; directory_read: number } {
    return { directory: this.#directories.size, directory_read: this.#reads.size };
  }
}
