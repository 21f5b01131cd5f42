import { describe, expect, it } from 'vitest';
import { ReadBatcher } from '../../store/readBatcher.ts';

/** A loader that records each batch it was asked for and answers `value-<key>` for keys not in `missing`. */
function recordingLoader(missing: string[] = []) {
  const batches: string[][] = [];
  const load = async (keys: string[]) => {
    batches.push(keys);
    return new Map(keys.filter((key) => !missing.includes(key)).map((key) => [key, `value-${key}`]));
  };
  return { batches, load };
}

describe('ReadBatcher', () => {
  it('reads the keys asked for in one turn of the event loop with one call, each key once', async () => {
    const { batches, load } = recordingLoader();
    const batcher = new ReadBatcher(load);
    const answers = await Promise.all(['a', 'b', 'a', 'c'].map((key) => batcher.load(key)));
    expect(answers).toEqual(['value-a', 'value-b', 'value-a', 'value-c']);
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('answers undefined for a key the loader did not find', async () => {
    const batcher = new ReadBatcher(recordingLoader(['gone']).load);
    expect(await Promise.all([batcher.load('gone'), batcher.load('here')])).toEqual([undefined, 'value-here']);
  });

  it('answers undefined for a key isKey refuses, and keeps it out of the batch the others share', async () => {
    const { batches, load } = recordingLoader();
    const batcher = new ReadBatcher(load, { isKey: (key: string) => key !== 'bad' });
    expect(await Promise.all([batcher.load('bad'), batcher.load('good')])).toEqual([undefined, 'value-good']);
    expect(batches).toEqual([['good']]);
  });

  it('sends a batch as soon as it is full and the rest in the next one', async () => {
    const { batches, load } = recordingLoader();
    const batcher = new ReadBatcher(load, { maxBatch: 2 });
    await Promise.all(['a', 'b', 'c'].map((key) => batcher.load(key)));
    expect(batches).toEqual([['a', 'b'], ['c']]);
  });

  it('reads a key asked for after its batch left in a new batch, so a read never predates its request', async () => {
    const { batches, load } = recordingLoader();
    const batcher = new ReadBatcher(load);
    await batcher.load('a');
    await batcher.load('a');
    expect(batches).toEqual([['a'], ['a']]);
  });

  it('fails every read of a batch whose statement failed, and the next batch reads afresh', async () => {
    let fail = true;
    const batcher = new ReadBatcher(async (keys: string[]) => {
      if (fail) throw new Error('connection lost');
      return new Map(keys.map((key) => [key, key]));
    });
    const failed = await Promise.allSettled([batcher.load('a'), batcher.load('b')]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batcher.load('a')).toBe('a');
  });

  it('turns a loader that throws before returning a promise into failed reads, not an exception in the caller', async () => {
    const batcher = new ReadBatcher<string, string>(() => {
      throw new Error('bad statement');
    });
    await expect(batcher.load('a')).rejects.toThrow('bad statement');
  });
});
