import { ApplicationFailure } from '@temporalio/activity';
import { fetch, type Agent } from 'undici';

/**
 * One delivery of an audit stream or a webhook endpoint: the body POSTed with its signature headers through the agent
 * pinned to the checked addresses; anything but a 2xx (redirects included) is a retryable failure naming `what`.
 */
export async function signedPost(request: { url: string; agent: Agent; body: string; headers: Record<string, string>; timeoutMs: number; what: string }): Promise<void> {
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      // A redirect could lead to a host the stream target rule refuses: it is not followed.
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
      dispatcher: request.agent,
    });
  } catch (error) {
    const cause = (error as Error).cause as Error | undefined;
    throw ApplicationFailure.retryable(`delivery of ${request.what} failed: ${(error as Error).message}${cause ? ` (${cause.message})` : ''}`, 'receiver_unreachable');
  }
  await response.body?.cancel();
  if (response.status < 200 || response.status > 299) {
    throw ApplicationFailure.retryable(`the receiver answered ${response.status} to ${request.what}`, 'receiver_refused');
  }
}
