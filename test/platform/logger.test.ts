import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { accessLoggerOf, createLogger } from '../../platform/logger.ts';

const linesOf = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('createLogger and accessLoggerOf', () => {
  it('the service logger redacts secrets; the access logger writes to the same destination under the same name and level', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'logger-')), 'log.jsonl');
    const log = createLogger('info', 'tenant-registry-api', pino.destination({ dest: file, sync: true }));
    const access = accessLoggerOf(log);
    log.info({ body: { password: 'hunter2', key: 'trk_secret' } }, 'something');
    access.info({ requestId: 'r-1', method: 'POST', path: '/v1/internal/api-keys/verify', status: 200, ms: 0.4 }, 'request');
    access.debug({ requestId: 'r-2' }, 'request');
    const [first, second, ...rest] = linesOf(file);
    expect(first).toMatchObject({ name: 'tenant-registry-api', body: { password: '[redacted]', key: '[redacted]' } });
    expect(second).toMatchObject({ name: 'tenant-registry-api', level: 30, requestId: 'r-1', status: 200, msg: 'request' });
    expect(rest).toEqual([]);
  });

  it('gives the same access logger for the same service logger, and a foreign logger back as it is', () => {
    const log = createLogger('silent', 'a');
    expect(accessLoggerOf(log)).toBe(accessLoggerOf(log));
    const foreign = pino({ level: 'silent' });
    expect(accessLoggerOf(foreign)).toBe(foreign);
  });
});
