import { describe, expect, it } from 'vitest';
import { summarizeCpuProfile, type CpuProfile } from '../../bench/cpuProfileSummary.ts';

const root = '/srv/tenant-registry';
const frame = (id: number, functionName: string, url = '', lineNumber = 0) => ({ id, callFrame: { functionName, url, lineNumber } });

const profile: CpuProfile = {
  nodes: [
    frame(1, '(root)'),
    frame(2, '(idle)'),
    frame(3, 'respond', 'file:///srv/tenant-registry/node_modules/koa/lib/application.js', 267),
    frame(4, 'writeUtf8String'),
    frame(5, 'verifyApiKey', `file://${root}/domain/apiKeys/verifyApiKey.ts`, 33),
    frame(6, 'parse', 'file:///srv/tenant-registry/node_modules/@mikro-orm/core/index.js', 9),
    frame(7, ''),
    frame(8, 'compose', 'file:///srv/tenant-registry/node_modules/koa/lib/compose.js', 4),
  ],
  samples: [2, 2, 2, 2, 3, 3, 4, 4, 4, 5, 6, 7, 8, 2],
};

describe('summarizeCpuProfile', () => {
  const summary = summarizeCpuProfile(profile, root);

  it('counts only busy samples: the idle ones are left out of every share', () => {
    expect(summary.busySamples).toBe(9);
  });

  it('ranks functions by self time, named with their project-relative file and one-based line', () => {
    expect(summary.functions.slice(0, 3)).toEqual([
      { name: 'writeUtf8String', share: 3 / 9 },
      { name: 'respond (node_modules/koa/lib/application.js:268)', share: 2 / 9 },
      { name: 'verifyApiKey (domain/apiKeys/verifyApiKey.ts:34)', share: 1 / 9 },
    ]);
    expect(summary.functions.map((f) => f.name)).toContain('(unnamed native code)');
  });

  it('groups self time by npm package (scoped ones whole), project file or native function', () => {
    expect(summary.modules).toEqual(
      expect.arrayContaining([
        { name: 'koa', share: 3 / 9 },
        { name: 'writeUtf8String', share: 3 / 9 },
        { name: '@mikro-orm/core', share: 1 / 9 },
        { name: 'domain/apiKeys/verifyApiKey.ts', share: 1 / 9 },
      ]),
    );
    expect(summary.modules[0]!.share).toBe(3 / 9);
  });

  it('keeps only the top entries asked for', () => {
    expect(summarizeCpuProfile(profile, root, 2).functions).toHaveLength(2);
  });
});
