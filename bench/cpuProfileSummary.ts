/** Where a V8 CPU profile's busy time went: the functions and the modules with the most self time. */

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
}

export interface CpuProfileSummary {
  /** Samples with the process on CPU (V8's `(idle)` samples left out). */
  busySamples: number;
  /** Self time, highest first: `name` is the function with its file and line, or V8's own `(garbage collector)`, `(program)`. */
  functions: { name: string; share: number }[];
  /** Self time per project file, npm package or Node built-in module. */
  modules: { name: string; share: number }[];
}

const IDLE = '(idle)';

export function summarizeCpuProfile(profile: CpuProfile, projectRoot: string, top = 12): CpuProfileSummary {
  const samplesOf = new Map<number, number>();
  for (const id of profile.samples) samplesOf.set(id, (samplesOf.get(id) ?? 0) + 1);
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let busySamples = 0;
  const projectPrefix = `file://${projectRoot}/`;
  for (const node of profile.nodes) {
    const samples = samplesOf.get(node.id);
    const { functionName, url, lineNumber } = node.callFrame;
    if (!samples || functionName === IDLE) continue;
    busySamples += samples;
    const file = url.startsWith(projectPrefix) ? url.slice(projectPrefix.length) : url;
    // Frames without a file are V8's or Node's native code (`writeUtf8String`, `(garbage collector)`).
    const name = file ? `${functionName || '(anonymous)'} (${file}:${lineNumber + 1})` : functionName || '(unnamed native code)';
    byFunction.set(name, (byFunction.get(name) ?? 0) + samples);
    const module = moduleOf(file) ?? name;
    byModule.set(module, (byModule.get(module) ?? 0) + samples);
  }
  const ranked = (counts: Map<string, number>) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, samples]) => ({ name, share: samples / Math.max(1, busySamples) }));
  return { busySamples, functions: ranked(byFunction), modules: ranked(byModule) };
}

/** `node_modules/koa/lib/x.js` → `koa`, `node_modules/@mikro-orm/core/…` → `@mikro-orm/core`, `node:_http_outgoing` as it is. */
function moduleOf(file: string): string | undefined {
  if (!file) return undefined;
  const inPackage = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (inPackage) return inPackage[1];
  return file;
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

export function formatCpuProfileSummary(summary: CpuProfileSummary): string[] {
  return [
    `  self time (${summary.busySamples} busy samples): ${summary.functions.map((f) => `${f.name} ${percent(f.share)}`).join('; ')}`,
    `  by module: ${summary.modules.map((m) => `${m.name} ${percent(m.share)}`).join('; ')}`,
  ];
}
