import { pino, type Logger } from 'pino';

/** One JSON logger per process; secrets are redacted wherever they might be attached to a log object. */
export function createLogger(level: string, name: string): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['req.headers.authorization', '*.clientSecret', '*.client_secret', '*.password', '*.plaintext', '*.key'],
      censor: '[redacted]',
    },
  });
}
export type { Logger };
