import { describe, expect, it } from 'vitest';
import { attemptsExhausted, retryDelayMs, type RetryPolicy } from '../../domain/retryPolicy.ts';

const doubling: RetryPolicy = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 60_000 };

describe('retryDelayMs', () => {
  it('waits the initial interval after the first failure, then multiplies by the coefficient up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelayMs(doubling, attempt))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  });

  it('stays at the maximum however many attempts were made', () => {
    expect(retryDelayMs(doubling, 10_000)).toBe(60_000);
  });

  it('takes any coefficient, as the provisioning policy from the settings may', () => {
    const policy = { initialIntervalMs: 100, backoffCoefficient: 1.5, maximumIntervalMs: 400 };
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(policy, attempt))).toEqual([100, 150, 225, 337.5, 400]);
  });
});

describe('attemptsExhausted', () => {
  it('ends the budget at the maximum number of attempts, the first included', () => {
    const policy = { ...doubling, maximumAttempts: 3 };
    expect([1, 2, 3, 4].map((made) => attemptsExhausted(policy, made))).toEqual([false, false, true, true]);
  });

  it('never ends without a maximum, or with 0 (as in Temporal)', () => {
    expect(attemptsExhausted(doubling, 1_000)).toBe(false);
    expect(attemptsExhausted({ ...doubling, maximumAttempts: 0 }, 1_000)).toBe(false);
  });
});
