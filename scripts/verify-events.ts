import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { idOfSequence } from '../domain/events/cloudEvent.ts';
import { receivedEventsOf } from '../domain/events/receivedEvents.ts';
import { verifyEventStream, type SeenHead, type StreamVerdict } from '../domain/events/verifyEventStream.ts';

/**
 * `npm run verify-events -- <file> [--filtered] [--head <sequence>:<chainhash>] [--json]`: checks a copy of the
 * registry's events (an export in format=cloudevents, pages of GET /v1/events, a webhook receiver's captures) against
 * the audit chain and names every hash mismatch and every gap by event id (docs/events.md). Exits 1 when it found
 * one, 2 when it could not read the file.
 */
const usage = 'usage: npm run verify-events -- <export file | webhook capture> [--filtered] [--head <sequence>:<chainhash>] [--json]';

function headOf(text: string | undefined): SeenHead | undefined {
  if (text === undefined) return undefined;
  const [sequence = '', chainhash = ''] = text.split(':');
  const id = idOfSequence(sequence);
  if (id === undefined || !/^[0-9a-f]{64}$/.test(chainhash)) throw new Error(`--head must be <sequence>:<chainhash>, not ${text}`);
  return { id, chainhash };
}

function report(verdict: StreamVerdict): string {
  const lines = [
    `checked ${verdict.checked} events${verdict.first_id === undefined ? '' : ` (ids ${verdict.first_id} to ${verdict.last_id})`}: ` +
      `${verdict.mismatches.length} hash mismatches, ${verdict.gaps.length} gaps, ${verdict.duplicates.length} duplicates`,
  ];
  for (const id of verdict.mismatches) lines.push(`hash mismatch: event ${id}`);
  for (const gap of verdict.gaps) {
    lines.push(
      gap.through_id === undefined
        ? `gap: events missing after event ${gap.after_id} and before event ${gap.before_id}`
        : `gap: events missing after ${gap.after_id === null ? 'the start' : `event ${gap.after_id}`} through event ${gap.through_id} (the head seen before)`,
    );
  }
  for (const id of verdict.duplicates) lines.push(`duplicate: event ${id} (received more than once, the same each time)`);
  return lines.join('\n');
}

let exitCode: number;
try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { filtered: { type: 'boolean' }, head: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new Error(usage);
  const events = receivedEventsOf(await readFile(positionals[0]!, 'utf8'));
  const head = headOf(values.head);
  const verdict = verifyEventStream(events, { ...(values.filtered ? { filtered: true } : {}), ...(head ? { head } : {}) });
  process.stdout.write(`${values.json ? JSON.stringify(verdict) : report(verdict)}\n`);
  exitCode = verdict.ok ? 0 : 1;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  exitCode = 2;
}
process.exitCode = exitCode;
