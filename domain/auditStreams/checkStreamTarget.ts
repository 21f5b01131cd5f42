import { invalidInput } from '../errors.ts';
import { refusedHost } from './streamTargetRule.ts';
import { resolveStreamTarget, streamHost, type StreamTargets } from './streamTargets.ts';

/**
 * A stream may point only at http(s) URLs without credentials, at a host the stream target rule allows: with
 * AUDIT_STREAM_ALLOWED_HOSTS one it names (not resolved here: the receiver may resolve only from the workers'
 * network); without it a host whose addresses now are all public. Every delivery checks again. Audit streams and webhook
 * endpoints share the rule.
 */
export async function checkStreamTarget(url: string, targets: StreamTargets): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidInput('url must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidInput('url must be an absolute http or https URL');
  if (parsed.username || parsed.password) throw invalidInput('url must not carry credentials; the secret signs every delivery');
  const host = streamHost(url);
  let refused: string | undefined;
  if (targets.allowedHosts) refused = refusedHost(host, targets.allowedHosts);
  else {
    const verdict = await resolveStreamTarget(host, targets);
    if ('refused' in verdict) refused = verdict.refused;
  }
  if (refused) throw invalidInput(`url host ${refused}`);
}
