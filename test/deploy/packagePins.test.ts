/**
 * Every dependency is pinned to one exact version, the one the lockfile resolves: a range (`*`, `^`, `~`, `24`) would
 * let `npm install` bring a version nobody reviewed, and a lockfile whose root disagrees with package.json makes
 * `npm ci` refuse to install.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, unknown>;

/** SemVer 2.0.0: major.minor.patch, an optional pre-release and build; nothing that names a range. */
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

const manifest = readJson('package.json');
const specs = DEPENDENCY_FIELDS.flatMap((field) => Object.entries((manifest[field] ?? {}) as Record<string, string>).map(([name, spec]) => ({ field, name, spec })));

describe('package pins', () => {
  it('every dependency in package.json is an exact version, no range or tag', () => {
    expect(specs.length).toBeGreaterThan(40);
    expect(specs.filter(({ spec }) => !EXACT_VERSION.test(spec))).toEqual([]);
  });

  it("package-lock.json's root names the same specs and resolves each dependency to exactly its pin", () => {
    const packages = readJson('package-lock.json').packages as Record<string, Record<string, unknown>>;
    for (const field of DEPENDENCY_FIELDS) expect(packages['']![field], field).toEqual(manifest[field]);
    const resolved = specs.map(({ name }) => ({ name, version: packages[`node_modules/${name}`]?.version }));
    expect(resolved).toEqual(specs.map(({ name, spec }) => ({ name, version: spec })));
  });
});
