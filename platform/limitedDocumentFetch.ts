import { fetch } from 'undici';
import { agentPinnedTo } from './pinnedAgent.ts';

export interface LimitedDocumentFetchOptions {
  /** The addresses the URL may be reached at now, or why it may not (the caller's address rule). */
  check: (url: string) => Promise<{ addresses: string[] } | { refused: string }>;
  /** Bound on the whole exchange, body included. */
  timeoutMs: number;
  /** Bound on the body: a longer one is refused, and not read past the bound. */
  maxBytes: number;
  accept: string;
}

/**
 * GETs a document a caller named as the registry reaches such addresses: the URL checked first and the connection made
 * only to the addresses checked (no second look-up), no redirect followed, a 200 or nothing, within `timeoutMs` and at
 * most `maxBytes` of body. Answers the body as UTF-8 text, or why there is none.
 */
export function limitedDocumentFetch(options: LimitedDocumentFetchOptions): (url: string) => Promise<{ text: string } | { failed: string }> {
  return async (url) => {
    const target = await options.check(url);
    if ('refused' in target) return { failed: target.refused };
    const dispatcher = agentPinnedTo(target.addresses);
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const response = await fetch(url, { headers: { accept: options.accept }, redirect: 'manual', dispatcher, signal });
      if (response.status !== 200) {
        await response.body?.cancel();
        return { failed: `HTTP ${response.status}` };
      }
      const declared = Number(response.headers.get('content-length') ?? 'NaN');
      if (declared > options.maxBytes) {
        await response.body?.cancel();
        return { failed: `the document is larger than ${options.maxBytes} bytes` };
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of response.body ?? []) {
        size += chunk.byteLength;
        if (size > options.maxBytes) return { failed: `the document is larger than ${options.maxBytes} bytes` };
        chunks.push(chunk);
      }
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) };
    } catch (error) {
      if (signal.aborted) return { failed: `no answer within ${options.timeoutMs} ms` };
      return { failed: (error as Error).message };
    } finally {
      await dispatcher.destroy();
    }
  };
}
