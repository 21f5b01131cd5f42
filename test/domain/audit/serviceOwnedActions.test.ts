import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isServiceActorType, isServiceOwnedAction } from '../../../domain/audit/serviceOwnedActions.ts';

const root = resolve(import.meta.dirname, '..', '..', '..');
/** The layers that append audit events; tests, benches and scripts do not count. */
const SERVICE_LAYERS = ['domain', 'activities', 'api', 'store', 'workflows', 'identityProvider'];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every `'word.word'` literal on a line that names an action: what the service appends (`action: '…'`, ternaries included). */
function actionsTheServiceWrites(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of SERVICE_LAYERS.flatMap(sourceFiles)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!/\baction\b/.test(line)) continue;
      for (const [, action] of line.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) found.set(action!, relative(root, file));
    }
  }
  return found;
}

describe('the service-owned actions', () => {
  it('every action the service appends starts with a service-owned prefix: POST /v1/audit refuses them all from one list', () => {
    const written = actionsTheServiceWrites();
    expect(written.size).toBeGreaterThanOrEqual(20);
    expect([...written].filter(([action]) => !isServiceOwnedAction(action))).toEqual([]);
    expect(written.has('catalog.product_requested')).toBe(true);
  });
});

/** Every actor type literal the service layers write (`actorType: '…'`, `actor_type: '…'`, SERVICE_ACTOR_TYPE's). */
function actorTypesTheServiceWrites(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of SERVICE_LAYERS.flatMap(sourceFiles)) {
    for (const [, type] of readFileSync(file, 'utf8').matchAll(/(?:actorType|actor_type|ACTOR_TYPE) ?[:=] ?'([A-Za-z_]+)'/g)) found.set(type!, relative(root, file));
  }
  return found;
}

describe('the service-owned actor types', () => {
  it("every actor type the service writes is refused in any letter case, but the token's own (service)", () => {
    const written = actorTypesTheServiceWrites();
    expect([...written.keys()].sort()).toEqual(expect.arrayContaining(['directory', 'portal', 'service', 'system']));
    for (const type of [...written.keys()].filter((t) => t !== 'service')) {
      for (const spelled of [type, type.toUpperCase(), type[0]!.toUpperCase() + type.slice(1), ` ${type} `]) expect(isServiceActorType(spelled), spelled).toBe(true);
    }
    for (const allowed of ['service', 'user', 'systems', 'portal-user']) expect(isServiceActorType(allowed), allowed).toBe(false);
  });

  it('a service-owned action prefix is refused in any letter case and after white space, and only a prefix', () => {
    for (const action of ['member.removed', 'Member.removed', 'MEMBER.REMOVED', ' tenant.created', 'Catalog.x']) expect(isServiceOwnedAction(action), action).toBe(true);
    for (const action of ['billing.member.removed', 'members.viewed', 'apikey.used']) expect(isServiceOwnedAction(action), action).toBe(false);
  });
});
