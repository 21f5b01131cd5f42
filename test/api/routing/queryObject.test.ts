import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { queryObject } from '../../../api/routing/queryObject.ts';

const koaQueryOf = (search: string) => {
  const ctx = new Koa().createContext({ url: `/path?${search}`, headers: {}, socket: {} } as unknown as IncomingMessage, {} as ServerResponse);
  return ctx.query;
};

describe('queryObject', () => {
  it("is what Koa's ctx.query makes of the same query string", () => {
    const searches = [
      '',
      'filter=userName+eq+%22someone%40example.com%22',
      'a=1&b=2&a=3',
      'a=&b&=c&&d=%20',
      'x=%E2%82%AC&y=%F0%9F%98%80&z=%ZZ&w=%C3',
      'startIndex=1&count=50&attributes=userName,emails',
      'k=1&k=2&k=3&m=4',
      'a%5Bb%5D=1&a[b]=2',
      'toString=1&hasOwnProperty=2&constructor=3',
    ];
    for (const search of searches) expect(queryObject(search), search).toEqual(koaQueryOf(search));
  });

  it('makes an object whose names are the query\'s own, a repeated name listing its texts in order', () => {
    expect({ ...queryObject('a=1&a=2&b=x+y') }).toStrictEqual({ a: ['1', '2'], b: 'x y' });
  });

  it('has no prototype, so __proto__ is a name like any other, given once or more', () => {
    const query = queryObject('__proto__=a&__proto__=b&toString=c');
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(Object.keys(query)).toEqual(['__proto__', 'toString']);
    expect(query['__proto__']).toEqual(['a', 'b']);
  });
});
