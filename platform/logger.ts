import { pino, type DestinationStream, type Logger } from 'pino';
import { TurnBatchedLines } from './turnBatchedLines.ts';

/** Where each logger made here has its access lines written: its own destination (one file descriptor, one write queue). */
const destinations = new WeakMap<Logger, DestinationStream>();
const accessLoggers = new WeakMap<Logger, Logger>();

/**
 * One JSON logger per process; secrets are redacted wherever they might be attached to a log object.
 * Lines go to stdout asynchronously: while one write is in flight the next lines queue up and leave together, so a
 * busy API (one access line per request at info) makes a write per batch instead of a write per line. pino flushes
 * what is queued when the process exits.
 */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  if (destination) return loggerWritingTo(level, name, destination, destination);
  // On the process's stdout the access lines of a turn reach it together (platform/turnBatchedLines.ts); a given
  // destination (a test's file) gets them line by line, as written.
  const stdout = pino.destination({ dest: 1, sync: false });
  return loggerWritingTo(level, name, stdout, new TurnBatchedLines(stdout));
}

function loggerWritingTo(level: string, name: string, destination: DestinationStream, accessDestination: DestinationStream): Logger {
  const log = pino(
    {
      name,
      level,
      redact: {
        paths: ['req.headers.authorization', '*.clientSecret', '*.client_secret', '*.password', '*.plaintext', '*.key'],
        censor: '[redacted]',
      },
    },
    destination,
  );
  destinations.set(log, accessDestination);
  return log;
}

/**
 * The logger of the access lines: the same name, level and destination as `log`, without the redaction pass.
 * An access line has a fixed shape of fields the service sets itself (request id, method, path, status, time), none a
 * secret, and walking the redaction paths over it was much of what a line cost (issue #19's profile of verify).
 * Loggers made elsewhere (a test's) are used as they are.
 */
export function accessLoggerOf(log: Logger): Logger {
  const destination = destinations.get(log);
  if (!destination) return log;
  let access = accessLoggers.get(log);
  if (!access) {
    access = pino({ name: log.bindings().name as string | undefined, level: log.level }, destination);
    accessLoggers.set(log, access);
  }
  return access;
}
export type { Logger };
