/**
 * Coalesces the reads of one kind that arrive together into one statement. Keys asked for while the requests of one
 * turn of the event loop are handled gather, and when that turn's I/O is done (setImmediate) one query reads them
 * all (`where id = any($1)`); a batch that fills up leaves at once. The same key asked twice is read once.
 *
 * Why (issue #19): in the profile of a tenant read under load, sending each query to PostgreSQL (`writev`) and the
 * pool's acquire/release were a large share of the API's time, paid once per request; one statement for the requests
 * that arrived together pays them once per batch. Each read still starts after its request arrived, so a request
 * sees every write committed before it; a failed statement fails every read of its batch with the same error.
 */
export class ReadBatcher<K, V> {
  readonly #loadMany: (keys: K[]) => Promise<Map<K, V>>;
  readonly #maxBatch: number;
  readonly #isKey: (key: K) => boolean;
  #pending = new Map<K, { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]>();
  #scheduled = false;

  /**
   * `loadMany` answers a map of the keys it found; a key it leaves out is read as `undefined`. A key `isKey` refuses
   * is answered `undefined` without joining a batch: one key the statement cannot take (a uuid[] cast of a non-uuid)
   * would otherwise fail the reads of every request in its batch.
   */
  constructor(loadMany: (keys: K[]) => Promise<Map<K, V>>, options: { maxBatch?: number; isKey?: (key: K) => boolean } = {}) {
    this.#loadMany = loadMany;
    this.#maxBatch = options.maxBatch ?? 100;
    this.#isKey = options.isKey ?? (() => true);
  }

  load(key: K): Promise<V | undefined> {
    if (!this.#isKey(key)) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const waiters = this.#pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.#pending.set(key, [{ resolve, reject }]);
      if (this.#pending.size >= this.#maxBatch) this.#flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#flush();
        });
      }
    });
  }

  #flush(): void {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    let loading: Promise<Map<K, V>>;
    try {
      loading = this.#loadMany([...batch.keys()]);
    } catch (error) {
      loading = Promise.reject(error);
    }
    loading.then(
      (found) => {
        for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }
}
