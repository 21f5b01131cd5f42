import { describe, expect, it } from 'vitest';
import { isoWithMicroseconds } from '../../store/postgresTenantRepository.ts';

describe("isoWithMicroseconds: the listing cursor's position from PostgreSQL's text of a UTC timestamp", () => {
  it('keeps every microsecond and pads the fraction PostgreSQL cut after its last non-zero digit', () => {
    expect(isoWithMicroseconds('2026-11-23 23:35:03.550123')).toBe('2026-11-23T23:35:03.550123Z');
    expect(isoWithMicroseconds('2026-11-23 23:35:03.5501')).toBe('2026-11-23T23:35:03.550100Z');
    expect(isoWithMicroseconds('2026-01-02 03:04:05.000001')).toBe('2026-01-02T03:04:05.000001Z');
  });

  it('gives a whole second, which PostgreSQL writes without a fraction, six zeros', () => {
    expect(isoWithMicroseconds('2026-11-23 23:35:03')).toBe('2026-11-23T23:35:03.000000Z');
  });
});
