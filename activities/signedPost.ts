import { ApplicationFailure } from '@temporalio/activity';
import type { Agent } from 'undici';

/**
 * One delivery of an audit stream or a webhook endpoint: the body POSTed with its signature headers through the agent
 * pinned to the checked addresses; anything but a 2xx (redirects included) is a retryable failure naming `what`.
 * The agent's own `request`, not `fetch`: a delivery reads nothing of the answer but its status, and fetch's streams and
 * header objects cost a webhook's worker more per event than the rest of the delivery.
 */
export async function signedPost(request: { url: string; agent: Agent; body: string; headers: Record<string, string>; timeoutMs: number; what: string }): Promise<void> {
  const url = new URL(request.url);
  let statusCode: number;
  try {
    // `request` follows no redirect: one could lead to a host the stream target rule refuses.
    const response = await request.agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    statusCode = response.statusCode;
    await response.body.dump();
  } catch (error) {
    const cause = (error as Error).cause as Error | undefined;
    throw ApplicationFailure.retryable(`delivery of ${request.what} failed: ${(error as Error).message}${cause ? ` (${cause.message})` : ''}`, 'receiver_unreachable');
  }
  if (statusCode < 200 || statusCode > 299) {
    throw ApplicationFailure.retryable(`the receiver answered ${statusCode} to ${request.what}`, 'receiver_refused');
  }
}
