import { pino, type Logger } from 'pino';

/**
 * One JSON logger per process; secrets are redacted wherever they might be attached to a log object.
 * Lines go to stdout asynchronously: while one write is in flight the next lines queue up and leave together, so a
 * busy API (one access line per request at info) makes a write per batch instead of a write per line. pino flushes
 * what is queued when the process exits.
 */
export function createLogger(level: string, name: string): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: ['req.headers.authorization', '*.clientSecret', '*.client_secret', '*.password', '*.plaintext', '*.key'],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
export type { Logger };
