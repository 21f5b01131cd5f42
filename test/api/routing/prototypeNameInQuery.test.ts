import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnApi, type ApiProcess } from '../../support/spawnApi.ts';

/**
 * The API as it runs (its own process, with `--disable-proto=throw`, where assigning a `__proto__` property throws):
 * a query parameter of that name is a name like any other, never a 500.
 */
let api: ApiProcess;
beforeAll(async () => {
  api = await spawnApi();
}, 90_000);
afterAll(() => api?.child.kill('SIGTERM'));

describe('a query parameter named __proto__', () => {
  it('is ignored by an operation that ignores names it does not take, given once or twice, beside those it does', async () => {
    // A range of one event: the check's answer does not wait on the whole log.
    for (const search of ['__proto__=null&from_id=1&to_id=1', '__proto__=a&__proto__=b&from_id=1&to_id=1', 'from_id=1&__proto__&to_id=1']) {
      const res = await fetch(`${api.base}/v1/audit/integrity?${search}`);
      expect(res.status, search).toBe(200);
      expect(await res.json(), search).toMatchObject({ ok: true });
    }
  });

  it('leaves the parameters an operation takes as they are: a bad one is still 400', async () => {
    const res = await fetch(`${api.base}/v1/audit/integrity?__proto__=null&from_id=x`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('from_id');
  });

  it('is ignored by the admin portal\'s link page, which still carries the token it was given', async () => {
    const res = await fetch(`${api.base}/portal/open?__proto__=null&token=abc`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('value="abc"');
  });
});
