import { describe, expect, it } from 'vitest';
import type { AuditRepository } from '../../../domain/audit/auditRepository.ts';
import { SignInAuditLog } from '../../../domain/audit/signInAuditLog.ts';
import { eventually } from '../../support/eventually.ts';

/** A stand-in for the repository's insertBatch: records each statement's actions, fails while told to. */
function fakeInsert() {
  const statements: string[][] = [];
  const state = { failing: false };
  const insert: AuditRepository['insertBatch'] = async (tuples) => {
    if (state.failing) throw new Error('audit log unreachable');
    statements.push(tuples.map(({ event }) => event.action));
    return [];
  };
  return { insert, statements, state };
}

const meta = { actorId: 'keycloak' };
const HOUR = 3_600_000;
const event = (action: string) => ({ action, tenant_id: '6f1c2a3e-0000-4000-8000-000000000001' });

describe('SignInAuditLog', () => {
  it('writes the events recorded together as one statement, after its flush interval, without the recorder waiting', async () => {
    const { insert, statements } = fakeInsert();
    const log = new SignInAuditLog(insert, { flushAfterMs: 20, onError: () => {} });
    for (let i = 0; i < 5; i++) log.record(`k${i}`, HOUR, event(`sign_in.refused`), meta);
    expect(statements).toEqual([]);
    expect(log.queued).toBe(5);
    await eventually(async () => statements.length === 1, 5_000, 'the batch');
    expect(statements).toEqual([Array(5).fill('sign_in.refused')]);
    expect(log.queued).toBe(0);
  });

  it('records an event of the same key once within its window, and again after it', async () => {
    let now = 0;
    const { insert, statements } = fakeInsert();
    const log = new SignInAuditLog(insert, { flushAfterMs: HOUR, onError: () => {}, now: () => now });
    log.record('same', 60_000, event('sign_in.refused'), meta);
    now = 59_999;
    log.record('same', 60_000, event('sign_in.refused'), meta);
    log.record('other', 60_000, event('member.break_glass_used'), meta);
    now = 60_000;
    log.record('same', 60_000, event('sign_in.refused'), meta);
    await log.close();
    expect(statements).toEqual([['sign_in.refused', 'member.break_glass_used', 'sign_in.refused']]);
  });

  it('keeps a batch the audit log refused, first in line, and writes it with the next flush', async () => {
    const { insert, statements, state } = fakeInsert();
    const errors: unknown[] = [];
    const log = new SignInAuditLog(insert, { flushAfterMs: HOUR, onError: (error) => errors.push(error) });
    log.record('a', HOUR, event('sign_in.refused'), meta);
    state.failing = true;
    await log.flush();
    expect(errors).toHaveLength(1);
    expect(log.queued).toBe(1);
    log.record('b', HOUR, event('member.break_glass_used'), meta);
    state.failing = false;
    await log.flush();
    expect(statements).toEqual([['sign_in.refused', 'member.break_glass_used']]);
    expect(log.queued).toBe(0);
  });

  it('writes everything queued at close, however long its flush interval, a batch per statement', async () => {
    const { insert, statements } = fakeInsert();
    const log = new SignInAuditLog(insert, { flushAfterMs: HOUR, maxBatch: 2, onError: () => {} });
    for (let i = 0; i < 5; i++) log.record(`k${i}`, HOUR, event('sign_in.refused'), meta);
    await log.close();
    expect(statements.map((batch) => batch.length)).toEqual([2, 2, 1]);
    expect(log.queued).toBe(0);
  });

  it('drops, and reports, an event past maxQueued rather than holding the process memory hostage', async () => {
    const { insert, statements } = fakeInsert();
    const errors: unknown[] = [];
    const log = new SignInAuditLog(insert, { flushAfterMs: HOUR, maxQueued: 2, onError: (error) => errors.push(error) });
    for (let i = 0; i < 3; i++) log.record(`k${i}`, HOUR, event('sign_in.refused'), meta);
    expect(errors).toHaveLength(1);
    await log.close();
    expect(statements).toEqual([['sign_in.refused', 'sign_in.refused']]);
  });
});
